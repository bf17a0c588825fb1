/**
 * The Discord API emulator: a real HTTP server on 127.0.0.1 answering the routes the
 * adapter (and a discord.js `Client`) uses under `/api/v10`, with Discord's JSON errors,
 * `X-RateLimit-*` buckets and 429s, fault injection (conformance.md), and every accepted
 * message decoded into an {@link ObservedMessage}.
 */

import type { ObservedMessage } from "@outbox/core";
import {
  type AnsweredFault,
  type EmulatorAnswer,
  type EmulatorRequest,
  type PlatformEmulator,
  serveEmulator,
} from "@outbox/core/testing";
import { DiscordApiError } from "./api-error.js";
import { readBody } from "./body.js";
import { createMessage } from "./create-message.js";
import { deleteMessage, editMessage } from "./edit-message.js";
import { NonceLog } from "./nonces.js";
import { Buckets, GlobalLimit } from "./rate-limits.js";
import { DiscordStore, type StoredMessage } from "./store.js";
import {
  DEFAULT_CHANNEL,
  DEFAULT_USER,
  type DiscordEmulatorOptions,
  type EmulatedDiscordChannel,
} from "./types.js";

/** One request the emulator answered; `method` is its route with every id written `:id`. */
export interface DiscordEmulatorRequest extends EmulatorRequest {
  /** `POST /channels/{id}/messages`, … (without `/api/v10`). */
  route: string;
  /** Content-Type of the request. */
  contentType: string;
  /** Transfer-Encoding of the request (`chunked` for a streamed upload). */
  transferEncoding: string;
}

/** A running emulator. */
export interface DiscordEmulator extends PlatformEmulator {
  /** Base URL for `@discordjs/rest`'s `api` option (`http://127.0.0.1:<port>/api`). */
  readonly api: string;
  /** The token it accepts. */
  readonly token: string;
  /** Every request, in arrival order. */
  readonly requests: readonly DiscordEmulatorRequest[];
  /** Bot messages in a channel and its threads (every channel when omitted), in order. */
  observe(channelId?: string): ObservedMessage[];
  /** Stored bot messages with their raw Create Message payloads, in order. */
  messages(): readonly StoredMessage[];
  /** Make a channel exist. */
  addChannel(channel: EmulatedDiscordChannel): void;
  /** Record a message from a user in a channel, to reply to; returns its id. */
  seedMessage(channelId: string, text: string): string;
}

const DEFAULT_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAx.outbox.emulator-token";
const MiB = 1024 * 1024;

/** The routes the emulator answers, as a fault's `method` names them (every id written `:id`). */
export const DISCORD_FAULT_TARGETS: readonly string[] = [
  "POST /channels/:id/messages",
  "PATCH /channels/:id/messages/:id",
  "DELETE /channels/:id/messages/:id",
  "POST /users/@me/channels",
  "GET /channels/:id",
];

/** Discord's error for an injected 429, 5xx or 400. */
function faultError(fault: AnsweredFault): DiscordApiError {
  if (fault.kind === "server-error")
    return new DiscordApiError(fault.status, 0, `${fault.status}: Server Error`);
  if (fault.kind === "reject") return new DiscordApiError(400, 0, fault.description);
  return new DiscordApiError(429, 0, "You are being rate limited.", undefined, {
    "retry-after": String(fault.retryAfterMs / 1000),
    "x-ratelimit-scope": "user",
  });
}

/** Discord's JSON error (a 429 with `retry_after` seconds and `global`). */
function answerError(error: unknown): EmulatorAnswer {
  const api =
    error instanceof DiscordApiError
      ? error
      : new DiscordApiError(500, 0, `emulator failure: ${String(error)}`);
  const body =
    api.status === 429
      ? {
          message: api.message,
          retry_after: Number(api.headers["retry-after"] ?? 1),
          global: api.headers["x-ratelimit-global"] === "true",
        }
      : api.body();
  return { status: api.status, body, headers: api.headers };
}

/** Start an emulator on 127.0.0.1 with a random port. */
export async function startDiscordEmulator(options: DiscordEmulatorOptions = {}): Promise<DiscordEmulator> {
  const token = options.token ?? DEFAULT_TOKEN;
  const store = new DiscordStore(
    options.channels ?? [{ id: DEFAULT_CHANNEL }],
    new Set(options.users ?? [DEFAULT_USER]),
    options.threadsFromMessages ?? true,
  );
  const maxUploadBytes = options.maxUploadBytes ?? 10 * MiB;
  const maxRequestBytes = options.maxRequestBytes ?? 25 * MiB;
  const buckets = new Buckets(
    options.messageBucket ?? { limit: 5, windowMs: 5000 },
    options.now ?? (() => performance.now()),
    "80c17d2f203122d936070c88c8d10f33",
  );
  const globalPerSecond = options.globalPerSecond ?? 50;
  const global =
    globalPerSecond === false
      ? undefined
      : new GlobalLimit(globalPerSecond, options.now ?? (() => performance.now()));
  // Edit Message and Delete Message are buckets of their own, per channel.
  const editBuckets = new Buckets(
    options.editBucket ?? { limit: 5, windowMs: 5000 },
    options.now ?? (() => performance.now()),
    "1a4c2e6b8d0f13579bdf02468ace1357",
  );
  const deleteBuckets = new Buckets(
    options.editBucket ?? { limit: 5, windowMs: 5000 },
    options.now ?? (() => performance.now()),
    "2b5d3f7c9e1a24680acf13579bdf2468",
  );
  const nonces = new NonceLog(options.nonceWindowMs ?? 120_000, options.now ?? (() => performance.now()));

  const server = await serveEmulator<DiscordEmulatorRequest>({
    faultTargets: DISCORD_FAULT_TARGETS,
    entry: (req, url) => {
      const path = url.pathname.replace(/^\/api\/v10/, "");
      return {
        method: `${req.method} ${path.replace(/\/\d+/g, "/:id")}`,
        route: `${req.method} ${path}`,
        contentType: req.headers["content-type"] ?? "",
        transferEncoding: req.headers["transfer-encoding"] ?? "",
        status: 0,
      };
    },
    faultError,
    answerError,
    handle: async ({ req, url, entry, fault }) => {
      const path = url.pathname.replace(/^\/api\/v10/, "");
      const body = await readBody(req, maxRequestBytes + MiB);
      entry.content = JSON.stringify([body.json, [...body.files.values()].map((file) => file.name)]);
      fault();
      if (req.headers.authorization !== `Bot ${token}`)
        throw new DiscordApiError(401, 0, "401: Unauthorized");
      global?.take();
      const method = req.method ?? "GET";
      const messages = /^\/channels\/(\d+)\/messages$/.exec(path);
      if (method === "POST" && messages) {
        const channelId = messages[1] as string;
        store.channel(channelId); // 10003 / 50001 before the bucket, as Discord answers them
        const headers = buckets.take(channelId);
        return { status: 200, body: createMessage(store, channelId, body, maxUploadBytes, nonces), headers };
      }
      const one = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
      if ((method === "PATCH" || method === "DELETE") && one) {
        const [, channelId, messageId] = one as unknown as [string, string, string];
        store.channel(channelId);
        if (method === "PATCH") {
          const headers = editBuckets.take(channelId);
          return { status: 200, body: editMessage(store, channelId, messageId, body), headers };
        }
        const headers = deleteBuckets.take(channelId);
        deleteMessage(store, channelId, messageId);
        return { status: 204, headers };
      }
      if (method === "POST" && path === "/users/@me/channels") {
        const user = String(body.json.recipient_id ?? "");
        const id = store.dmWith(user);
        return { status: 200, body: { id, type: 1, recipients: [{ id: user, username: "user" }] } };
      }
      const channel = /^\/channels\/(\d+)$/.exec(path);
      if (method === "GET" && channel) {
        const found = store.channel(channel[1] as string);
        return {
          status: 200,
          body: {
            id: found.id,
            type: found.type === "dm" ? 1 : found.type === "thread" ? 11 : 0,
            ...(found.type === "dm"
              ? { recipients: [] }
              : { guild_id: "1300000000000000001", name: "outbox" }),
            ...(found.parent ? { parent_id: found.parent } : {}),
          },
        };
      }
      throw new DiscordApiError(404, 0, "404: Not Found");
    },
  });

  return {
    ...server,
    api: `${server.url}/api`,
    token,
    observe: (channelId) => store.observe(channelId),
    messages: () => store.messages.filter((m) => m.fromBot),
    rateLimitRefusals: () =>
      buckets.refusals + editBuckets.refusals + deleteBuckets.refusals + (global?.refusals ?? 0),
    addChannel: (channel) => store.addChannel(channel),
    seedMessage: (channelId, text) => {
      store.channel(channelId);
      const id = store.snowflake();
      store.add({ id, channelId, fromBot: false, payload: { content: text } });
      return id;
    },
  };
}
