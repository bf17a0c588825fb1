/**
 * The Discord API emulator: a real HTTP server on 127.0.0.1 answering the routes the
 * adapter (and a discord.js `Client`) uses under `/api/v10`, with Discord's JSON errors,
 * `X-RateLimit-*` buckets and 429s, fault injection (conformance.md), and every accepted
 * message decoded into an {@link ObservedMessage}.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Fault, type ObservedMessage, serveFaults } from "@outbox/core";
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

/** One request the emulator answered. */
export interface DiscordEmulatorRequest {
  /** `POST /channels/{id}/messages`, … (without `/api/v10`). */
  route: string;
  /** Content-Type of the request. */
  contentType: string;
  /** Transfer-Encoding of the request (`chunked` for a streamed upload). */
  transferEncoding: string;
  /** HTTP status answered (0 for a dropped connection or an answer withheld). */
  status: number;
  /**
   * What the request carried, as text: its JSON payload and file names; absent until its
   * body was read. A request listed here reached the platform, processed or not.
   */
  content?: string;
}

/** A running emulator. */
export interface DiscordEmulator {
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
  /** 429s answered under the emulator's own buckets (injected faults not counted). */
  rateLimitRefusals(): number;
  /**
   * Misbehave on the next call(s). A fault's `method` names a route with its ids written
   * `:id` (`POST /channels/:id/messages`).
   */
  inject(fault: Fault): void;
  /** Connections reset by a `reset-before-write` fault before their request was written. */
  refusedConnections(): number;
  /** Make a channel exist. */
  addChannel(channel: EmulatedDiscordChannel): void;
  /** Record a message from a user in a channel, to reply to; returns its id. */
  seedMessage(channelId: string, text: string): string;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
}

const DEFAULT_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAx.outbox.emulator-token";
const MiB = 1024 * 1024;

/** The routes the emulator answers, as fault targets name them (every id written `:id`). */
const DISCORD_ROUTES = [
  "POST /channels/:id/messages",
  "PATCH /channels/:id/messages/:id",
  "DELETE /channels/:id/messages/:id",
  "POST /users/@me/channels",
  "GET /channels/:id",
];

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
  const requests: DiscordEmulatorRequest[] = [];
  const nonces = new NonceLog(options.nonceWindowMs ?? 120_000, options.now ?? (() => performance.now()));

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    entry: DiscordEmulatorRequest,
  ): Promise<number> => {
    const body = await readBody(req, maxRequestBytes + MiB);
    entry.content = JSON.stringify([body.json, [...body.files.values()].map((file) => file.name)]);
    const fault = faults.next(`${req.method} ${path.replace(/\/\d+/g, "/:id")}`, req, res);
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault?.kind === "rate-limit") {
      const wait = fault.retryAfterMs / 1000;
      throw new DiscordApiError(429, 0, "You are being rate limited.", undefined, {
        "retry-after": String(wait),
        "x-ratelimit-scope": "user",
      });
    }
    if (fault?.kind === "server-error")
      throw new DiscordApiError(fault.status, 0, `${fault.status}: Server Error`);
    if (fault?.kind === "reject") throw new DiscordApiError(400, 0, fault.description);
    if (req.headers.authorization !== `Bot ${token}`) throw new DiscordApiError(401, 0, "401: Unauthorized");
    global?.take();
    const method = req.method ?? "GET";
    const messages = /^\/channels\/(\d+)\/messages$/.exec(path);
    if (method === "POST" && messages) {
      const channelId = messages[1] as string;
      store.channel(channelId); // 10003 / 50001 before the bucket, as Discord answers them
      const headers = buckets.take(channelId);
      return reply(res, 200, createMessage(store, channelId, body, maxUploadBytes, nonces), headers);
    }
    const one = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
    if ((method === "PATCH" || method === "DELETE") && one) {
      const [, channelId, messageId] = one as unknown as [string, string, string];
      store.channel(channelId);
      if (method === "PATCH") {
        const headers = editBuckets.take(channelId);
        return reply(res, 200, editMessage(store, channelId, messageId, body), headers);
      }
      const headers = deleteBuckets.take(channelId);
      deleteMessage(store, channelId, messageId);
      return reply(res, 204, undefined, headers);
    }
    if (method === "POST" && path === "/users/@me/channels") {
      const user = String(body.json.recipient_id ?? "");
      const id = store.dmWith(user);
      return reply(res, 200, { id, type: 1, recipients: [{ id: user, username: "user" }] });
    }
    const channel = /^\/channels\/(\d+)$/.exec(path);
    if (method === "GET" && channel) {
      const found = store.channel(channel[1] as string);
      return reply(res, 200, {
        id: found.id,
        type: found.type === "dm" ? 1 : found.type === "thread" ? 11 : 0,
        ...(found.type === "dm" ? { recipients: [] } : { guild_id: "1300000000000000001", name: "outbox" }),
        ...(found.parent ? { parent_id: found.parent } : {}),
      });
    }
    throw new DiscordApiError(404, 0, "404: Not Found");
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/^\/api\/v10/, "");
    const entry: DiscordEmulatorRequest = {
      route: `${req.method} ${path}`,
      contentType: req.headers["content-type"] ?? "",
      transferEncoding: req.headers["transfer-encoding"] ?? "",
      status: 0,
    };
    requests.push(entry);
    handle(req, res, path, entry)
      .then((status) => {
        entry.status = status;
      })
      .catch((error: unknown) => {
        const api =
          error instanceof DiscordApiError
            ? error
            : new DiscordApiError(500, 0, `emulator failure: ${String(error)}`);
        if (!req.complete) req.resume();
        const payload =
          api.status === 429
            ? {
                message: api.message,
                retry_after: Number(api.headers["retry-after"] ?? 1),
                global: api.headers["x-ratelimit-global"] === "true",
              }
            : api.body();
        entry.status = reply(res, api.status, payload, api.headers);
      });
  });
  const faults = serveFaults(server, DISCORD_ROUTES);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;

  return {
    api: `http://127.0.0.1:${port}/api`,
    token,
    requests,
    observe: (channelId) => store.observe(channelId),
    messages: () => store.messages.filter((m) => m.fromBot),
    rateLimitRefusals: () =>
      buckets.refusals + editBuckets.refusals + deleteBuckets.refusals + (global?.refusals ?? 0),
    inject: (fault) => faults.inject(fault),
    refusedConnections: () => faults.refusedConnections,
    addChannel: (channel) => store.addChannel(channel),
    seedMessage: (channelId, text) => {
      store.channel(channelId);
      const id = store.snowflake();
      store.add({ id, channelId, fromBot: false, payload: { content: text } });
      return id;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): number {
  if (res.destroyed) return 0;
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return res.headersSent ? status : 0;
  }
  const json = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
  });
  res.end(json);
  // An answer withheld by a fault sent nothing.
  return res.headersSent ? status : 0;
}
