/**
 * The Matrix homeserver emulator: a real HTTP server on 127.0.0.1 answering the client-server
 * API routes the adapter uses (send, redact, event, state, directory, media upload), with the
 * spec's JSON errors, Synapse's `rc_message` rate limit, fault injection (conformance.md),
 * and every accepted message decoded into an {@link ObservedMessage} as Element shows it.
 */

import type { IncomingMessage } from "node:http";
import type { ObservedMessage } from "@outbox/core";
import {
  type AnsweredFault,
  type EmulatorAnswer,
  type EmulatorRequest,
  type PlatformEmulator,
  serveEmulator,
} from "@outbox/core/testing";
import { MatrixApiError } from "./api-error.js";
import { MediaRepository } from "./media.js";
import { MessageRateLimit } from "./rate-limit.js";
import { redact, sendMessage } from "./send-event.js";
import { MatrixStore, type StoredEvent } from "./store.js";
import { BOT_USER, DEFAULT_ROOM, type EmulatedMatrixRoom, type MatrixEmulatorOptions } from "./types.js";

/** One request the emulator answered; `method` is its fault target (see {@link MATRIX_FAULT_TARGETS}). */
export interface MatrixEmulatorRequest extends EmulatorRequest {
  /** `PUT /rooms/{roomId}/send/m.room.message/{txnId}`, … (path without `/_matrix/client/v3`). */
  route: string;
  /** Transfer-Encoding of the request (`chunked` for an upload without a length). */
  transferEncoding: string;
}

/** A running emulator. */
export interface MatrixEmulator extends PlatformEmulator {
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
  /** Make a room exist. */
  addRoom(room: EmulatedMatrixRoom): void;
  /** Record a message from another user in a room, to reply to; returns its event id. */
  seedMessage(roomId: string, text: string): string;
}

const DEFAULT_TOKEN = "syt_b3V0Ym94LWJvdA_outboxEmulatorToken_0a1b2c";
const MiB = 1024 * 1024;
const CLIENT = "/_matrix/client/v3";

/**
 * The requests the emulator answers, by the names a fault's `method` uses: `send` (`PUT
 * /rooms/{roomId}/send/{type}/{txnId}`), `redact`, `event` (`GET /rooms/{roomId}/event/{id}`),
 * `state`, `directory` (room alias lookup), `whoami`, and `upload` (`POST /_matrix/media/v3/upload`).
 */
export const MATRIX_FAULT_TARGETS: readonly string[] = [
  "send",
  "redact",
  "event",
  "state",
  "directory",
  "whoami",
  "upload",
];

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

/** The homeserver's error for an injected 429, 5xx or 400. */
function faultError(fault: AnsweredFault): MatrixApiError {
  if (fault.kind === "server-error")
    return new MatrixApiError(fault.status, "M_UNKNOWN", "Internal server error");
  if (fault.kind === "reject") return new MatrixApiError(400, "M_UNKNOWN", fault.description);
  return new MatrixApiError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", {
    retry_after_ms: fault.retryAfterMs,
  });
}

/** The spec's JSON error. */
function answerError(error: unknown): EmulatorAnswer {
  const api =
    error instanceof MatrixApiError
      ? error
      : new MatrixApiError(500, "M_UNKNOWN", `emulator failure: ${String(error)}`);
  return { status: api.status, body: api.body() };
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

  const server = await serveEmulator<MatrixEmulatorRequest>({
    faultTargets: MATRIX_FAULT_TARGETS,
    entry: (req, url) => ({
      method: targetOf(url.pathname),
      route: `${req.method} ${url.pathname.replace(CLIENT, "")}`,
      transferEncoding: req.headers["transfer-encoding"] ?? "",
      status: 0,
    }),
    faultError,
    answerError,
    handle: async ({ req, url, entry, fault }) => {
      const upload = url.pathname === "/_matrix/media/v3/upload";
      if (upload && req.headers["content-length"] === undefined)
        // Synapse's upload resource: "Request must specify a Content-Length".
        throw new MatrixApiError(400, "M_UNKNOWN", "Request must specify a Content-Length");
      const raw = await readBody(req, upload ? maxUploadBytes : MiB);
      entry.content = upload ? JSON.stringify([url.searchParams.get("filename")]) : raw.toString("utf8");
      fault();
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
        return { status: 200, body: { content_uri: uri } };
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
        return {
          status: 200,
          body: { event_id: sendMessage(store, media, accessToken, roomId, txnId, content) },
        };
      }
      if (method === "PUT" && parts[1] === "rooms" && parts[3] === "redact" && parts.length === 6) {
        const [, , roomId = "", , eventId = "", txnId = ""] = parts;
        json(raw);
        store.joinedRoom(roomId);
        rateLimit.take();
        return { status: 200, body: { event_id: redact(store, accessToken, roomId, eventId, txnId) } };
      }
      if (method === "GET" && parts[1] === "rooms" && parts[3] === "event" && parts.length === 5) {
        const [, , roomId = "", , eventId = ""] = parts;
        store.joinedRoom(roomId);
        const event = store.event(roomId, eventId);
        if (event === undefined) throw new MatrixApiError(404, "M_NOT_FOUND", "Event not found.");
        return {
          status: 200,
          body: {
            event_id: event.eventId,
            room_id: roomId,
            sender: event.sender,
            type: event.type,
            content: event.redacted ? {} : event.content,
          },
        };
      }
      if (
        method === "GET" &&
        parts[1] === "rooms" &&
        parts[3] === "state" &&
        parts[4] === "m.room.encryption"
      ) {
        const room = store.joinedRoom(parts[2] ?? "");
        if (!room.encrypted) throw new MatrixApiError(404, "M_NOT_FOUND", "Event not found.");
        return { status: 200, body: { algorithm: "m.megolm.v1.aes-sha2" } };
      }
      if (method === "GET" && parts[1] === "directory" && parts[2] === "room" && parts.length === 4) {
        const roomId = store.aliases.get(parts[3] ?? "");
        if (roomId === undefined)
          throw new MatrixApiError(404, "M_NOT_FOUND", `Room alias ${parts[3]} not found`);
        return { status: 200, body: { room_id: roomId, servers: ["outbox.test"] } };
      }
      if (method === "GET" && path === "/account/whoami") return { status: 200, body: { user_id: BOT_USER } };
      throw new MatrixApiError(404, "M_UNRECOGNIZED", "Unrecognized request");
    },
  });

  return {
    ...server,
    homeserver: server.url,
    accessToken,
    observe: (roomId) => store.observe(roomId),
    events: () => store.events,
    rateLimitRefusals: () => rateLimit.refusals,
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
