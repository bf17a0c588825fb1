/**
 * The Matrix homeserver emulator: a real HTTP server on 127.0.0.1 answering the client-server
 * API routes the adapter uses (send, redact, event, state, directory, media upload), with the
 * spec's JSON errors, Synapse's `rc_message` rate limit, fault injection (conformance.md),
 * and every accepted message decoded into an {@link ObservedMessage} as Element shows it.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Fault, type ObservedMessage, serveFaults } from "@outbox/core";
import { MatrixApiError } from "./api-error.js";
import { MediaRepository } from "./media.js";
import { MessageRateLimit } from "./rate-limit.js";
import { redact, sendMessage } from "./send-event.js";
import { MatrixStore, type StoredEvent } from "./store.js";
import { BOT_USER, DEFAULT_ROOM, type EmulatedMatrixRoom, type MatrixEmulatorOptions } from "./types.js";

/** One request the emulator answered. */
export interface MatrixEmulatorRequest {
  /** `PUT /rooms/{roomId}/send/m.room.message/{txnId}`, … (path without `/_matrix/client/v3`). */
  route: string;
  /** Transfer-Encoding of the request (`chunked` for an upload without a length). */
  transferEncoding: string;
  /** HTTP status answered (0 for a dropped connection or a withheld answer). */
  status: number;
  /** What it carried: the JSON body as sent, or an upload's `["file name"]`. */
  content?: string;
}

/** A running emulator. */
export interface MatrixEmulator {
  /** Base URL for the adapter's `homeserver` (`http://127.0.0.1:<port>`). */
  readonly homeserver: string;
  /** The access token it accepts. */
  readonly accessToken: string;
  /** Every request, in arrival order. */
  readonly requests: readonly MatrixEmulatorRequest[];
  /** Bot messages of a room (every room when omitted), in order, as Element shows them. */
  observe(roomId?: string): ObservedMessage[];
  /** Every stored event with its content as sent, in order. */
  events(): readonly StoredEvent[];
  /** 429s answered under the emulator's own rate limit (injected faults not counted). */
  rateLimitRefusals(): number;
  /**
   * Misbehave on the next call(s); a fault's `method` is `send`, `redact`, `event`, `state`, `directory`, `whoami` or `upload`
   * (another throws `UnknownFaultError`).
   */
  inject(fault: Fault): void;
  /** Connections reset by a `reset-before-write` fault before their request was written. */
  refusedConnections(): number;
  /** Make a room exist. */
  addRoom(room: EmulatedMatrixRoom): void;
  /** Record a message from another user in a room, to reply to; returns its event id. */
  seedMessage(roomId: string, text: string): string;
  /** Stop the server and drop its connections. */
  close(): Promise<void>;
}

const DEFAULT_TOKEN = "syt_b3V0Ym94LWJvdA_outboxEmulatorToken_0a1b2c";
const MiB = 1024 * 1024;
const CLIENT = "/_matrix/client/v3";

/**
 * The requests the emulator answers, by the names fault targets use: `send` (`PUT
 * /rooms/{roomId}/send/{type}/{txnId}`), `redact`, `event` (`GET /rooms/{roomId}/event/{id}`),
 * `state`, `directory` (room alias lookup), `whoami`, and `upload` (`POST /_matrix/media/v3/upload`).
 */
const MATRIX_FAULT_TARGETS = ["send", "redact", "event", "state", "directory", "whoami", "upload"];

/** The fault target a request goes by (its path's operation), or the path when it names none. */
function targetOf(pathname: string): string {
  if (pathname === "/_matrix/media/v3/upload") return "upload";
  const path = pathname.startsWith(CLIENT) ? pathname.slice(CLIENT.length) : pathname;
  const [, first, , operation] = path.split("/");
  if (first === "rooms" && operation !== undefined) return operation;
  if (first === "directory") return "directory";
  if (path === "/account/whoami") return "whoami";
  return path;
}

/** Start an emulator on 127.0.0.1 with a random port. */
export async function startMatrixEmulator(options: MatrixEmulatorOptions = {}): Promise<MatrixEmulator> {
  const accessToken = options.accessToken ?? DEFAULT_TOKEN;
  const store = new MatrixStore(options.rooms ?? [{ id: DEFAULT_ROOM }]);
  const media = new MediaRepository();
  const maxUploadBytes = options.maxUploadBytes ?? 50 * MiB;
  const rateLimit = new MessageRateLimit(
    options.rateLimit ?? { perSecond: 0.2, burst: 10 },
    options.now ?? (() => performance.now()),
  );
  const requests: MatrixEmulatorRequest[] = [];

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    entry: MatrixEmulatorRequest,
  ): Promise<number> => {
    const upload = url.pathname === "/_matrix/media/v3/upload";
    if (upload && req.headers["content-length"] === undefined)
      // Synapse's upload resource: "Request must specify a Content-Length".
      throw new MatrixApiError(400, "M_UNKNOWN", "Request must specify a Content-Length");
    const raw = await readBody(req, upload ? maxUploadBytes : MiB);
    entry.content = upload ? JSON.stringify([url.searchParams.get("filename")]) : raw.toString("utf8");
    // Connection faults (reset before the request was written, the answer dropped or withheld
    // after processing) are core's serveFaults; the others are answered here.
    const fault = faults.next(targetOf(url.pathname), req, res);
    if (fault?.kind === "reset") {
      req.socket.destroy();
      return 0;
    }
    if (fault?.kind === "rate-limit")
      throw new MatrixApiError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", {
        retry_after_ms: fault.retryAfterMs,
      });
    if (fault?.kind === "server-error")
      throw new MatrixApiError(fault.status, "M_UNKNOWN", "Internal server error");
    if (fault?.kind === "reject") throw new MatrixApiError(400, "M_UNKNOWN", fault.description);
    const auth = req.headers.authorization;
    if (auth === undefined) throw new MatrixApiError(401, "M_MISSING_TOKEN", "Missing access token.");
    if (auth !== `Bearer ${accessToken}`)
      throw new MatrixApiError(401, "M_UNKNOWN_TOKEN", "Invalid access token passed.", {
        soft_logout: false,
      });
    const method = req.method ?? "GET";
    if (upload && method === "POST") {
      const type = req.headers["content-type"] ?? "application/octet-stream";
      const uri = media.add(raw, type, url.searchParams.get("filename") ?? undefined);
      return reply(res, 200, { content_uri: uri });
    }
    const path = url.pathname.startsWith(CLIENT) ? url.pathname.slice(CLIENT.length) : url.pathname;
    const parts = path.split("/").map(decodeURIComponent);
    // ["", "rooms", roomId, "send", type, txnId]
    if (method === "PUT" && parts[1] === "rooms" && parts[3] === "send" && parts.length === 6) {
      const [, , roomId = "", , type = "", txnId = ""] = parts;
      if (type !== "m.room.message")
        throw new MatrixApiError(
          400,
          "M_UNRECOGNIZED",
          `the emulator models m.room.message only, not ${type}`,
        );
      const content = json(raw);
      store.joinedRoom(roomId);
      if (store.transaction(accessToken, txnId) === undefined) rateLimit.take();
      return reply(res, 200, { event_id: sendMessage(store, media, accessToken, roomId, txnId, content) });
    }
    if (method === "PUT" && parts[1] === "rooms" && parts[3] === "redact" && parts.length === 6) {
      const [, , roomId = "", , eventId = "", txnId = ""] = parts;
      json(raw);
      store.joinedRoom(roomId);
      rateLimit.take();
      return reply(res, 200, { event_id: redact(store, accessToken, roomId, eventId, txnId) });
    }
    if (method === "GET" && parts[1] === "rooms" && parts[3] === "event" && parts.length === 5) {
      const [, , roomId = "", , eventId = ""] = parts;
      store.joinedRoom(roomId);
      const event = store.event(roomId, eventId);
      if (event === undefined) throw new MatrixApiError(404, "M_NOT_FOUND", "Event not found.");
      return reply(res, 200, {
        event_id: event.eventId,
        room_id: roomId,
        sender: event.sender,
        type: event.type,
        content: event.redacted ? {} : event.content,
      });
    }
    if (
      method === "GET" &&
      parts[1] === "rooms" &&
      parts[3] === "state" &&
      parts[4] === "m.room.encryption"
    ) {
      const room = store.joinedRoom(parts[2] ?? "");
      if (!room.encrypted) throw new MatrixApiError(404, "M_NOT_FOUND", "Event not found.");
      return reply(res, 200, { algorithm: "m.megolm.v1.aes-sha2" });
    }
    if (method === "GET" && parts[1] === "directory" && parts[2] === "room" && parts.length === 4) {
      const roomId = store.aliases.get(parts[3] ?? "");
      if (roomId === undefined)
        throw new MatrixApiError(404, "M_NOT_FOUND", `Room alias ${parts[3]} not found`);
      return reply(res, 200, { room_id: roomId, servers: ["outbox.test"] });
    }
    if (method === "GET" && path === "/account/whoami") return reply(res, 200, { user_id: BOT_USER });
    throw new MatrixApiError(404, "M_UNRECOGNIZED", "Unrecognized request");
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const entry: MatrixEmulatorRequest = {
      route: `${req.method} ${url.pathname.replace(CLIENT, "")}`,
      transferEncoding: req.headers["transfer-encoding"] ?? "",
      status: 0,
    };
    requests.push(entry);
    handle(req, res, url, entry)
      .then((status) => {
        entry.status = status;
      })
      .catch((error: unknown) => {
        const api =
          error instanceof MatrixApiError
            ? error
            : new MatrixApiError(500, "M_UNKNOWN", `emulator failure: ${String(error)}`);
        if (!req.complete) req.resume();
        entry.status = reply(res, api.status, api.body());
      });
  });
  const faults = serveFaults(server, MATRIX_FAULT_TARGETS);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;

  return {
    homeserver: `http://127.0.0.1:${port}`,
    accessToken,
    requests,
    observe: (roomId) => store.observe(roomId),
    events: () => store.events,
    rateLimitRefusals: () => rateLimit.refusals,
    inject: (fault) => faults.inject(fault),
    refusedConnections: () => faults.refusedConnections,
    addRoom: (room) => store.addRoom(room),
    seedMessage: (roomId, text) => {
      const eventId = store.newEventId();
      store.add({
        eventId,
        roomId,
        type: "m.room.message",
        sender: "@someone:outbox.test",
        content: { msgtype: "m.text", body: text },
      });
      return eventId;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes)
      throw new MatrixApiError(
        413,
        "M_TOO_LARGE",
        `Upload request body is too large (over ${maxBytes} bytes)`,
      );
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function json(raw: Buffer): Record<string, unknown> {
  try {
    const value = JSON.parse(raw.toString("utf8")) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new MatrixApiError(400, "M_NOT_JSON", "Content not JSON.");
}

function reply(res: ServerResponse, status: number, body: unknown): number {
  if (res.destroyed) return 0;
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
  // An answer a fault dropped or withheld never ended.
  return res.writableEnded ? status : 0;
}
