/**
 * The Telegram Bot API emulator: a real HTTP server on 127.0.0.1 answering
 * `POST /bot<token>/<method>` with Telegram's JSON envelope (always JSON, also for 429
 * and 5xx, because grammY reads only the body), strict validation, flood limits, fault
 * injection, and every accepted message decoded into an {@link ObservedMessage}.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serveFaults } from "@outbox/core";
import { ApiError } from "./api-error.js";
import { readRequest } from "./body.js";
import { BOT, Chats } from "./chats.js";
import { EDIT_METHODS } from "./edit-methods.js";
import { type ConnectionCounts, watchIdleSockets } from "./idle-sockets.js";
import type { StoredFile } from "./media.js";
import { Observations } from "./observations.js";
import { FloodControl } from "./rate-limits.js";
import { type HandlerContext, SEND_METHODS } from "./send-methods.js";
import type { EmulatedChat, Fault, FetchedUrl, ObservedMessage, TelegramEmulatorOptions } from "./types.js";

/** One request the emulator answered. */
export interface EmulatorRequest {
  /** Method name as called. */
  method: string;
  /** HTTP status answered (0 for a dropped connection or an answer withheld). */
  status: number;
  /**
   * What the request carried, as text: its parameters (JSON) and uploaded file names; absent
   * until its body was read. A request listed here reached the platform, processed or not.
   */
  content?: string;
}

/** A running emulator. */
export interface TelegramEmulator {
  /** Base URL for grammY's `apiRoot` (no trailing slash). */
  readonly apiRoot: string;
  /** The token it accepts. */
  readonly token: string;
  /** Every request, in arrival order. */
  readonly requests: readonly EmulatorRequest[];
  /** How many calls it refused with 429 under its flood limits (injected rate-limit faults not counted). */
  rateLimitRefusals(): number;
  /** Every URL it downloaded (or tried to), in order. */
  readonly urlFetches: readonly string[];
  /** Connections opened and closed, and requests reset on a connection idle past `idleTimeoutMs`. */
  readonly connections: Readonly<ConnectionCounts>;
  /** Connections reset by a `reset-before-write` fault before their request was written. */
  refusedConnections(): number;
  /** Messages that arrived in a chat, in order (every chat when omitted). */
  observe(chatId?: number): ObservedMessage[];
  /** Misbehave on the next call(s). */
  inject(fault: Fault): void;
  /** Make a chat exist. */
  addChat(chat: EmulatedChat): void;
  /** Record a message from a user in a chat, to reply to; returns its id. */
  seedMessage(chatId: number, text: string): string;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
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
  const requests: EmulatorRequest[] = [];
  const urlFetches: string[] = [];
  let floodRefusals = 0;
  const takeFlood = (chatId: number): number | undefined => {
    const wait = flood?.take(chatId);
    if (wait !== undefined) floodRefusals += 1;
    return wait;
  };

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    entry: EmulatorRequest,
  ): Promise<number> => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const route = /^\/bot([^/]+)\/(?:test\/)?([A-Za-z]+)$/.exec(url.pathname);
    const body = await readRequest(req, url);
    entry.content = JSON.stringify([body.params, [...body.files.values()].map((file) => file.fileName)]);
    if (!route) throw new ApiError(404, "Not Found");
    const fault = faults.next(entry.method, req, res);
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault?.kind === "rate-limit") {
      // Telegram sends whole seconds; an injected fault keeps its precision so suites can wait briefly.
      const wait = fault.retryAfterMs / 1000;
      throw new ApiError(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait });
    }
    if (fault?.kind === "server-error")
      throw new ApiError(fault.status, STATUS_TEXT[fault.status] ?? "Server Error");
    if (fault?.kind === "reject") throw new ApiError(400, fault.description);
    if (route[1] !== token) throw new ApiError(401, "Unauthorized");
    const method = route[2]!.toLowerCase();
    const ctx: HandlerContext = {
      chats,
      media: { files: body.files, known, fetchUrl, onFetch: (fetched) => urlFetches.push(fetched) },
      flood: takeFlood,
      observations,
    };
    if (method === "getme") return reply(res, 200, { ok: true, result: BOT });
    if (method === "sendchataction") return reply(res, 200, { ok: true, result: true });
    const handler = SEND_METHODS[method] ?? EDIT_METHODS[method];
    if (!handler) throw new ApiError(404, "Not Found: method not found");
    return reply(res, 200, { ok: true, result: await handler(body, ctx) });
  };

  const server = createServer((req, res) => {
    const method = /\/([A-Za-z]+)(?:\?|$)/.exec(req.url ?? "")?.[1] ?? "";
    const entry: EmulatorRequest = { method, status: 0 };
    requests.push(entry);
    if (idle.stale(req, res)) return;
    // With an idle timeout set, announce none (like Telegram): the client cannot plan for it.
    if (options.idleTimeoutMs !== undefined) res.setHeader("connection", "keep-alive");
    handle(req, res, entry)
      .then((status) => {
        entry.status = status;
      })
      .catch((error: unknown) => {
        const api =
          error instanceof ApiError
            ? error
            : new ApiError(500, `Internal Server Error: emulator failure (${String(error)})`);
        const envelope = {
          ok: false,
          error_code: api.code,
          description: api.description,
          ...(api.parameters ? { parameters: api.parameters } : {}),
        };
        if (!req.complete) req.resume();
        entry.status = reply(res, api.code, envelope);
      });
  });
  const idle = watchIdleSockets(server, options.idleTimeoutMs, now);
  const faults = serveFaults(server, [
    "getMe",
    "sendChatAction",
    ...Object.keys(SEND_METHODS),
    ...Object.keys(EDIT_METHODS),
  ]);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    requests,
    rateLimitRefusals: () => floodRefusals,
    urlFetches,
    connections: idle.counts,
    observe: (chatId) => observations.list(chatId),
    inject: (fault) => faults.inject(fault),
    refusedConnections: () => faults.refusedConnections,
    addChat: (chat) => chats.add(chat),
    seedMessage: (chatId, text) => String(chats.seed(chatId, text)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, body: unknown): number {
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
  res.end(json);
  // An answer withheld by a fault sent nothing.
  return res.headersSent ? status : 0;
}
