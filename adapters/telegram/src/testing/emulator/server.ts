/**
 * The Telegram Bot API emulator: a real HTTP server on 127.0.0.1 answering
 * `POST /bot<token>/<method>` with Telegram's JSON envelope (always JSON, also for 429
 * and 5xx, because grammY reads only the body), strict validation, flood limits, fault
 * injection, and every accepted message decoded into an {@link ObservedMessage}.
 */
import {
  type AnsweredFault,
  type EmulatorAnswer,
  type EmulatorRequest,
  type PlatformEmulator,
  serveEmulator,
} from "@outbox/core/testing";
import { ApiError } from "./api-error.js";
import { readRequest } from "./body.js";
import { BOT, Chats } from "./chats.js";
import { EDIT_METHODS } from "./edit-methods.js";
import { type ConnectionCounts, watchIdleSockets } from "./idle-sockets.js";
import type { StoredFile } from "./media.js";
import { Observations } from "./observations.js";
import { FloodControl } from "./rate-limits.js";
import { type HandlerContext, SEND_METHODS } from "./send-methods.js";
import type { EmulatedChat, FetchedUrl, ObservedMessage, TelegramEmulatorOptions } from "./types.js";

/** One request the emulator answered: `method` is the Bot API method as called. */
export type { EmulatorRequest };

/**
 * The Bot API methods it answers, as a fault's `method` names them (compared without regard to
 * case, as Telegram compares method names).
 */
export const TELEGRAM_FAULT_TARGETS: readonly string[] = [
  "sendMessage",
  "sendPhoto",
  "sendAnimation",
  "sendVideo",
  "sendAudio",
  "sendVoice",
  "sendDocument",
  "sendMediaGroup",
  "editMessageText",
  "deleteMessage",
  "getMe",
  "sendChatAction",
];

/** A running emulator. */
export interface TelegramEmulator extends PlatformEmulator {
  /** Base URL for grammY's `apiRoot` (no trailing slash). */
  readonly apiRoot: string;
  /** The token it accepts. */
  readonly token: string;
  /** Every URL it downloaded (or tried to), in order. */
  readonly urlFetches: readonly string[];
  /** Connections opened and closed, and requests reset on a connection idle past `idleTimeoutMs`. */
  readonly connections: Readonly<ConnectionCounts>;
  /** Messages that arrived in a chat, in order (every chat when omitted). */
  observe(chatId?: number): ObservedMessage[];
  /** Make a chat exist. */
  addChat(chat: EmulatedChat): void;
  /** Record a message from a user in a chat, to reply to; returns its id. */
  seedMessage(chatId: number, text: string): string;
}

const DEFAULT_TOKEN = "123456:outbox-emulator";
const STATUS_TEXT: Record<number, string> = {
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

async function defaultFetch(url: string, signal: AbortSignal): Promise<FetchedUrl> {
  const response = await fetch(url, { signal, redirect: "follow" });
  return { status: response.status, contentType: response.headers.get("content-type"), body: response.body };
}

/** Telegram's error for an injected 429, 5xx or 400. */
function faultError(fault: AnsweredFault): ApiError {
  if (fault.kind === "server-error")
    return new ApiError(fault.status, STATUS_TEXT[fault.status] ?? "Server Error");
  if (fault.kind === "reject") return new ApiError(400, fault.description);
  // Telegram sends whole seconds; an injected fault keeps its precision so suites can wait briefly.
  const wait = fault.retryAfterMs / 1000;
  return new ApiError(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
}

/** Telegram's JSON envelope for an error (always JSON, also for 429 and 5xx). */
function answerError(error: unknown): EmulatorAnswer {
  const api =
    error instanceof ApiError
      ? error
      : new ApiError(500, `Internal Server Error: emulator failure (${String(error)})`);
  const body = {
    ok: false,
    error_code: api.code,
    description: api.description,
    ...(api.parameters ? { parameters: api.parameters } : {}),
  };
  return { status: api.code, body };
}

/** Start an emulator on 127.0.0.1 with a random port. */
export async function startTelegramEmulator(
  options: TelegramEmulatorOptions = {},
): Promise<TelegramEmulator> {
  const token = options.token ?? DEFAULT_TOKEN;
  const chats = new Chats(options.chats ?? [{ id: 42 }]);
  const now = options.now ?? (() => performance.now());
  const flood = options.rateLimits === false ? undefined : new FloodControl(options.rateLimits ?? {}, now);
  const fetchUrl = options.fetchUrl ?? defaultFetch;
  const known = new Map<string, StoredFile>();
  const observations = new Observations();
  const urlFetches: string[] = [];
  let floodRefusals = 0;
  const takeFlood = (chatId: number): number | undefined => {
    const wait = flood?.take(chatId);
    if (wait !== undefined) floodRefusals += 1;
    return wait;
  };
  let idle: ReturnType<typeof watchIdleSockets> | undefined;

  const server = await serveEmulator<EmulatorRequest>({
    faultTargets: TELEGRAM_FAULT_TARGETS,
    entry: (req) => ({ method: /\/([A-Za-z]+)(?:\?|$)/.exec(req.url ?? "")?.[1] ?? "", status: 0 }),
    faultError,
    answerError,
    prepare: (http) => {
      idle = watchIdleSockets(http, options.idleTimeoutMs, now);
    },
    handle: async ({ req, res, url, entry, fault }) => {
      if (idle?.stale(req, res)) return undefined;
      // With an idle timeout set, announce none (like Telegram): the client cannot plan for it.
      if (options.idleTimeoutMs !== undefined) res.setHeader("connection", "keep-alive");
      const route = /^\/bot([^/]+)\/(?:test\/)?([A-Za-z]+)$/.exec(url.pathname);
      const body = await readRequest(req, url);
      entry.content = JSON.stringify([body.params, [...body.files.values()].map((file) => file.fileName)]);
      if (!route) throw new ApiError(404, "Not Found");
      fault();
      if (route[1] !== token) throw new ApiError(401, "Unauthorized");
      const method = route[2]!.toLowerCase();
      const ctx: HandlerContext = {
        chats,
        media: { files: body.files, known, fetchUrl, onFetch: (fetched) => urlFetches.push(fetched) },
        flood: takeFlood,
        observations,
      };
      if (method === "getme") return { status: 200, body: { ok: true, result: BOT } };
      if (method === "sendchataction") return { status: 200, body: { ok: true, result: true } };
      const handler = SEND_METHODS[method] ?? EDIT_METHODS[method];
      if (!handler) throw new ApiError(404, "Not Found: method not found");
      return { status: 200, body: { ok: true, result: await handler(body, ctx) } };
    },
  });

  return {
    ...server,
    apiRoot: server.url,
    token,
    rateLimitRefusals: () => floodRefusals,
    urlFetches,
    connections: (idle as ReturnType<typeof watchIdleSockets>).counts,
    observe: (chatId) => observations.list(chatId),
    addChat: (chat) => chats.add(chat),
    seedMessage: (chatId, text) => String(chats.seed(chatId, text)),
  };
}
