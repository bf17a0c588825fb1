/**
 * The Google Chat emulator: the Chat API's messages (`POST /v1/{space}/messages`, `PATCH` and
 * `DELETE /v1/{name}`) as a real HTTP server on 127.0.0.1, beside a token endpoint on a host
 * of its own (the service account key's `token_uri`) and a media host Chat fetches from.
 * Strict: the token must be one the endpoint issued with the `chat.bot` scope and not
 * expired; spaces, membership and threads are checked (`messageReplyOption` required with a
 * thread); a message's fields, its 32,000 bytes and its text's 4,096 characters are checked
 * (the API documents only the bytes; the Chat client stops a person at 4,096 characters, so
 * this emulator refuses more rather than let a renderer count on it); client-assigned ids
 * are checked and a repeat answered 409 `ALREADY_EXISTS`; card images and links fetched and
 * sniffed (emulator/cards.ts); the per-space and per-project quotas answer 429
 * `RESOURCE_EXHAUSTED` without `Retry-After` (Google sends none: clients back off); faults
 * are injected by the kit; edits keep revisions.
 */
import type { IncomingMessage } from "node:http";
import type { MediaHost, ObservedMessage, RateLimit } from "@outbox/core";
import { undiciAgent } from "@outbox/core";
import {
  createTokenBuckets,
  type EmulatorRequest,
  observedLines,
  type PlatformEmulator,
  serveEmulator,
  startEmulatedMediaHost,
} from "@outbox/core/testing";
import { GOOGLE_CHAT_RATE_LIMITS, MAX_MESSAGE_BYTES, MAX_TEXT_LENGTH } from "../../capabilities.js";
import { readCards } from "./cards.js";
import { answerError, ChatApiError, faultError, invalidArgument, notFound } from "./errors.js";
import { startIdentity } from "./identity.js";
import { chatMentions, decodeChatText } from "./markup.js";
import { ChatStore } from "./store.js";
import type { EmulatedSpace, GoogleChatEmulatorOptions, StoredMessage } from "./types.js";

/** The API methods it answers, as a fault's `method` names them. */
export const GOOGLE_CHAT_FAULT_TARGETS: readonly string[] = [
  "spaces.messages.create",
  "spaces.messages.patch",
  "spaces.messages.delete",
];

/** The scope a Chat app's token must carry. */
const CHAT_BOT = "https://www.googleapis.com/auth/chat.bot";

/** A running emulator. */
export interface GoogleChatEmulator extends PlatformEmulator {
  /** Root of the emulated Chat API, for `apiUrl`. */
  readonly apiUrl: string;
  /** The token endpoint (the key's `token_uri`). */
  readonly tokenUrl: string;
  /** The service account's JSON key the token endpoint knows, for `credentials`. */
  readonly credentials: Record<string, string>;
  /** A media host on 127.0.0.1 this emulator fetches from, for the adapter's `media.host`. */
  readonly mediaHost: MediaHost;
  /** Every URL Chat fetched for a card, in order. */
  readonly urlFetches: readonly string[];
  /** What the Chat client shows of a space (every one when omitted), in order. */
  observe(space?: string): ObservedMessage[];
  /** Messages as stored, the person's own included. */
  history(space?: string): StoredMessage[];
  /** Add a space. */
  addSpace(space: EmulatedSpace): void;
  /** Record a message a person sent, starting a thread; returns its message name and thread name. */
  seedMessage(space: string, text: string): { name: string; thread: string };
  /** Tokens the endpoint issued. */
  tokensIssued(): number;
  /** Expire every token issued so far (the API then answers 401 to them). */
  expireTokens(): void;
}

const ROUTE = /^\/v1\/(spaces\/[^/]+)\/messages(?:\/([^/]+))?$/;
const MESSAGE_FIELDS = new Set(["text", "cardsV2", "thread", "fallbackText", "accessoryWidgets"]);
const CREATE_QUERY = new Set(["messageId", "messageReplyOption", "requestId", "threadKey"]);
const REPLY_OPTIONS = new Set(["REPLY_MESSAGE_OR_FAIL", "REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD"]);
const UPDATABLE = new Set(["text", "cardsV2", "attachment", "accessoryWidgets"]);

/** Start an emulator on 127.0.0.1 with random ports. */
export async function startGoogleChatEmulator(
  options: GoogleChatEmulatorOptions = {},
): Promise<GoogleChatEmulator> {
  const now = options.now ?? (() => Date.now());
  const identity = await startIdentity({ lifetimeMs: options.tokenLifetimeMs ?? 3_600_000, now });
  const hosted = await startEmulatedMediaHost();
  const fetcher = undiciAgent({
    keepAliveTimeout: 1000,
    ...(options.fetchConnect ? { connect: { ...options.fetchConnect } } : {}),
  });
  const urlFetches: string[] = [];
  const store = new ChatStore(options.spaces ?? []);
  const rules: readonly RateLimit[] | undefined =
    options.rateLimits === false ? undefined : (options.rateLimits ?? GOOGLE_CHAT_RATE_LIMITS);
  const buckets = createTokenBuckets(now);
  const takeQuota = (space: string) => {
    if (rules === undefined) return;
    const waitMs = buckets.take(
      rules.map((rule, index) => ({
        key: rule.scope === "global" ? `global:${index}` : `${index}:${space}`,
        capacity: rule.burst ?? rule.limit,
        perMs: rule.limit / rule.intervalMs,
      })),
    );
    if (waitMs !== undefined)
      throw new ChatApiError(
        429,
        "RESOURCE_EXHAUSTED",
        "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per space'.",
      );
  };

  const server = await serveEmulator<EmulatorRequest>({
    faultTargets: GOOGLE_CHAT_FAULT_TARGETS,
    entry: (req, url) => ({ method: methodOf(req.method, ROUTE.exec(url.pathname)), status: 0 }),
    faultError,
    answerError,
    body: {
      reads: (method) => method === "POST" || method === "PATCH",
      maxBytes: MAX_MESSAGE_BYTES,
      tooLarge: () =>
        invalidArgument(`The message is over the maximum message size of ${MAX_MESSAGE_BYTES} bytes.`),
    },
    authenticate: (bearer) => {
      const scopes = bearer === undefined ? undefined : identity.scopes(bearer);
      if (scopes === undefined)
        throw new ChatApiError(
          401,
          "UNAUTHENTICATED",
          "Request had invalid authentication credentials. Expected OAuth 2 access token.",
        );
      if (!scopes.includes(CHAT_BOT))
        throw new ChatApiError(403, "PERMISSION_DENIED", "Request had insufficient authentication scopes.");
    },
    handle: async ({ req, url, entry, body: raw }) => {
      const route = ROUTE.exec(url.pathname);
      if (route === null || !GOOGLE_CHAT_FAULT_TARGETS.includes(entry.method))
        throw notFound(`No route for ${req.method} ${url.pathname}.`);
      const space = store.space(decodeURIComponent(route[1] ?? ""));
      takeQuota(space);
      const name = route[2] === undefined ? undefined : `${space}/messages/${decodeURIComponent(route[2])}`;
      if (entry.method === "spaces.messages.delete") {
        store.own(name ?? "").deleted = true;
        return { status: 200, body: {} };
      }
      const message = parseMessage(req, raw ?? "");
      if (entry.method === "spaces.messages.patch") return patch(store.own(name ?? ""), message, url);
      return { status: 200, body: await create(space, message, url) };
    },
  });

  const patch = (stored: StoredMessage, message: Record<string, unknown>, url: URL) => {
    const mask = url.searchParams.get("updateMask");
    if (mask === null || mask === "") throw invalidArgument("updateMask is required.");
    for (const field of mask.split(","))
      if (!UPDATABLE.has(field.trim()))
        throw invalidArgument(`updateMask: field ${field} cannot be updated.`);
    if (!mask.split(",").includes("text") || stored.observed.kind !== "text")
      throw invalidArgument("only a text message's text is edited in this emulator (updateMask=text)");
    const text = readText(message.text);
    if (text === undefined) throw invalidArgument("Message cannot be empty.");
    const revisions = [...(stored.observed.revisions ?? []), stored.observed.text ?? ""];
    stored.observed = { ...text, ...(stored.reply ? { thread: stored.thread } : {}), revisions };
    stored.message = { ...stored.message, text: message.text };
    return { status: 200, body: answer(stored) };
  };

  const create = async (space: string, message: Record<string, unknown>, url: URL) => {
    for (const key of url.searchParams.keys())
      if (!CREATE_QUERY.has(key)) throw invalidArgument(`Unknown query parameter ${key}.`);
    const clientId = url.searchParams.get("messageId") ?? undefined;
    if (clientId !== undefined) store.checkClientId(space, clientId);
    const thread = placeThread(space, message.thread, url.searchParams.get("messageReplyOption"));
    const text = readText(message.text);
    const cards =
      message.cardsV2 === undefined
        ? []
        : await readCards(message.cardsV2, { dispatcher: fetcher, fetched: urlFetches });
    if (text === undefined && cards.length === 0) throw invalidArgument("Message cannot be empty.");
    // One message shows its text and its cards together; each is observed on its own, in that order.
    const shown = [...(text === undefined ? [] : [text]), ...cards];
    const stored = shown.map((observed, index) =>
      store.add({
        ...(clientId !== undefined && index === 0 ? { clientId } : {}),
        space,
        thread: thread.name,
        reply: thread.reply,
        message,
        observed: { ...observed, ...(thread.reply ? { thread: thread.name } : {}) },
      }),
    );
    return answer(stored[0] as StoredMessage);
  };

  /** The thread a new message goes to: an existing one, or a new one (keyed when asked by key). */
  const placeThread = (
    space: string,
    thread: unknown,
    option: string | null,
  ): { name: string; reply: boolean } => {
    if (thread === undefined) return { name: store.newThread(space), reply: false };
    if (typeof thread !== "object" || thread === null) throw invalidArgument("thread must be an object");
    const { name, threadKey } = thread as { name?: unknown; threadKey?: unknown };
    if (
      (name === undefined) === (threadKey === undefined) ||
      (name !== undefined && typeof name !== "string")
    )
      throw invalidArgument("thread needs a name or a threadKey");
    if (typeof threadKey === "string" && (threadKey === "" || threadKey.length > 4000))
      throw invalidArgument("threadKey must be 1 to 4,000 characters");
    // Without a reply option the thread is ignored and a new one started: strict, refused instead.
    if (option === null || !REPLY_OPTIONS.has(option))
      throw invalidArgument(
        "a message with a thread needs messageReplyOption REPLY_MESSAGE_OR_FAIL or REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD",
      );
    const wanted = thread as { name?: string; threadKey?: string };
    const found = store.findThread(space, wanted);
    if (found !== undefined) return { name: found, reply: true };
    if (option === "REPLY_MESSAGE_OR_FAIL") throw notFound("Thread not found.");
    return { name: store.newThread(space, wanted.threadKey), reply: false };
  };

  return {
    ...server,
    rateLimitRefusals: () => buckets.refusals(),
    apiUrl: server.url,
    tokenUrl: identity.tokenUrl,
    credentials: identity.credentials,
    mediaHost: hosted.host,
    urlFetches,
    observe: (space) => store.observe(space),
    history: (space) => store.messages.filter((m) => space === undefined || m.space === space),
    addSpace: (space) => store.addSpace(space),
    seedMessage: (space, text) => {
      const thread = store.newThread(space);
      const stored = store.add({
        space,
        thread,
        reply: false,
        message: { text },
        observed: { kind: "text", text },
        inbound: true,
      });
      return { name: stored.name, thread };
    },
    tokensIssued: () => identity.issued(),
    expireTokens: () => identity.expireAll(),
    close: async () => {
      await server.close();
      await identity.close();
      await hosted.close();
      await fetcher.close();
    },
  };
}

/** A text as the Chat client shows it, or undefined without one. */
function readText(text: unknown): ObservedMessage | undefined {
  if (text === undefined || text === "") return undefined;
  if (typeof text !== "string") throw invalidArgument("text must be a string");
  if (text.length > MAX_TEXT_LENGTH)
    throw invalidArgument(
      `text is ${text.length} characters; this emulator takes ${MAX_TEXT_LENGTH} at most`,
    );
  const decoded = decodeChatText(text);
  if (decoded.text.trim() === "") throw invalidArgument("Message cannot be empty.");
  const mentions = chatMentions(text);
  return {
    kind: "text",
    text: decoded.text,
    lines: observedLines(decoded.text, decoded.formatting),
    ...(decoded.formatting.length > 0 ? { formatting: decoded.formatting } : {}),
    ...(mentions ? { mentions } : {}),
  };
}

/** The Message resource answered. */
function answer(stored: StoredMessage): Record<string, unknown> {
  return {
    ...stored.message,
    name: stored.name,
    sender: { name: "users/app", type: "BOT" },
    space: { name: stored.space },
    thread: { name: stored.thread },
    ...(stored.clientId === undefined ? {} : { clientAssignedMessageId: stored.clientId }),
  };
}

/** The fault target a request goes by. */
function methodOf(verb: string | undefined, route: RegExpExecArray | null): string {
  if (route === null) return "unknown";
  if (verb === "POST" && route[2] === undefined) return "spaces.messages.create";
  if (verb === "PATCH" && route[2] !== undefined) return "spaces.messages.patch";
  if (verb === "DELETE" && route[2] !== undefined) return "spaces.messages.delete";
  return `${verb} messages`;
}

/** The body as a Message object with only the fields an app may write. */
function parseMessage(req: IncomingMessage, body: string): Record<string, unknown> {
  if (!/^application\/json/i.test(req.headers["content-type"] ?? ""))
    throw invalidArgument("The request body must be application/json.");
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw invalidArgument("Invalid JSON payload received.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidArgument("Invalid JSON payload received: a Message object expected.");
  for (const key of Object.keys(value))
    if (!MESSAGE_FIELDS.has(key))
      throw invalidArgument(
        `Invalid JSON payload received. Unknown name "${key}" at 'message': Cannot find field.`,
      );
  return value as Record<string, unknown>;
}
