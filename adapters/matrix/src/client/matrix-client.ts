/**
 * A thin typed Matrix client-server API client over undici: the handful of endpoints the
 * adapter calls, each one request through the adapter's (or the integrator's) dispatcher,
 * uploads streamed from the source, answers parsed as the spec defines them, and every
 * failure a {@link MatrixHttpError} (an error answer) or the network error as undici threw it.
 * It never retries and never sleeps: the engine does.
 */
import { Readable } from "node:stream";
import { redactedExcerpt } from "@outbox/core";
import type { Agent as AgentClass, Dispatcher } from "undici";
import { Agent, requestApi } from "./undici.js";

/** A Matrix error answer: HTTP status and the spec's `{ errcode, error, retry_after_ms? }`. */
export class MatrixHttpError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The spec's error code (`M_FORBIDDEN`, `M_LIMIT_EXCEEDED`, …); `M_UNKNOWN` when absent. */
    readonly errcode: string,
    /** The homeserver's description. */
    readonly description: string,
    /** `retry_after_ms` of an `M_LIMIT_EXCEEDED`, or the `Retry-After` header in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(`${status} ${errcode}: ${description}`);
    this.name = "MatrixHttpError";
  }
}

/** Options of {@link MatrixClient}. */
export interface MatrixClientOptions {
  /** Homeserver base URL (`https://matrix.example.org`), without `/_matrix`. */
  homeserver: string;
  /** Access token of the bot's user (sent as `Authorization: Bearer …`). */
  accessToken: string;
  /** Dispatcher to send through. Default: the client's own keep-alive `Agent`. */
  dispatcher?: Dispatcher;
  /** Milliseconds before a request is given up (headers and body). Default 60 000. */
  timeoutMs?: number;
}

/** A request body: JSON, or bytes streamed from a source. */
type Body = { json: unknown } | { stream: AsyncIterable<Uint8Array>; contentType: string; length: number };

/** The client. */
export class MatrixClient {
  private readonly origin: string;
  private readonly prefix: string;
  private readonly dispatcher: Dispatcher;
  private readonly owned: AgentClass | undefined;
  private readonly timeoutMs: number;

  constructor(private readonly options: MatrixClientOptions) {
    const base = new URL(options.homeserver);
    this.origin = base.origin;
    this.prefix = base.pathname.replace(/\/+$/, "");
    this.owned = options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 10_000, connections: 16 });
    this.dispatcher = options.dispatcher ?? (this.owned as AgentClass);
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** `PUT /rooms/{roomId}/send/{eventType}/{txnId}`: the event id (the same one again for a repeated txnId). */
  async sendEvent(roomId: string, eventType: string, txnId: string, content: unknown, signal?: AbortSignal) {
    const path = `/_matrix/client/v3/rooms/${enc(roomId)}/send/${enc(eventType)}/${enc(txnId)}`;
    const answer = await this.call<{ event_id: string }>("PUT", path, { json: content }, signal);
    return answer.event_id;
  }

  /** `PUT /rooms/{roomId}/redact/{eventId}/{txnId}`: the redaction's event id. */
  async redact(roomId: string, eventId: string, txnId: string, reason?: string, signal?: AbortSignal) {
    const path = `/_matrix/client/v3/rooms/${enc(roomId)}/redact/${enc(eventId)}/${enc(txnId)}`;
    const answer = await this.call<{ event_id: string }>(
      "PUT",
      path,
      { json: reason === undefined ? {} : { reason } },
      signal,
    );
    return answer.event_id;
  }

  /** `GET /rooms/{roomId}/event/{eventId}`: the event (a `MatrixHttpError` 404 `M_NOT_FOUND` when the bot cannot see it). */
  async getEvent(roomId: string, eventId: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const path = `/_matrix/client/v3/rooms/${enc(roomId)}/event/${enc(eventId)}`;
    return this.call("GET", path, undefined, signal);
  }

  /** `GET /rooms/{roomId}/state/{eventType}/{stateKey}`: the state content, `undefined` when the room has none (404). */
  async getState(roomId: string, eventType: string, stateKey = "", signal?: AbortSignal) {
    const path = `/_matrix/client/v3/rooms/${enc(roomId)}/state/${enc(eventType)}/${enc(stateKey)}`;
    try {
      return await this.call<Record<string, unknown>>("GET", path, undefined, signal);
    } catch (error) {
      if (error instanceof MatrixHttpError && error.status === 404 && error.errcode === "M_NOT_FOUND")
        return undefined;
      throw error;
    }
  }

  /** `GET /directory/room/{roomAlias}`: the room id an alias (`#room:server`) names. */
  async resolveAlias(alias: string, signal?: AbortSignal): Promise<string> {
    const path = `/_matrix/client/v3/directory/room/${enc(alias)}`;
    const answer = await this.call<{ room_id: string }>("GET", path, undefined, signal);
    return answer.room_id;
  }

  /** `POST /_matrix/media/v3/upload`, the bytes streamed: the `mxc://` URI of the stored file. */
  async upload(
    source: AsyncIterable<Uint8Array>,
    meta: { contentType: string; fileName: string; length: number },
    signal?: AbortSignal,
  ): Promise<string> {
    const path = `/_matrix/media/v3/upload?filename=${enc(meta.fileName)}`;
    const body = { stream: source, contentType: meta.contentType, length: meta.length };
    const answer = await this.call<{ content_uri: string }>("POST", path, body, signal);
    return answer.content_uri;
  }

  /** Close the client's own agent (nothing for an integrator's dispatcher). */
  async close(): Promise<void> {
    await this.owned?.close();
  }

  private async call<T>(
    method: Dispatcher.HttpMethod,
    path: string,
    body: Body | undefined,
    signal?: AbortSignal,
  ) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.accessToken}` };
    let payload: string | Readable | undefined;
    if (body && "json" in body) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body) {
      headers["content-type"] = body.contentType;
      headers["content-length"] = String(body.length);
      payload = Readable.from(body.stream, { objectMode: false });
    }
    const res = await requestApi.call(this.dispatcher, {
      origin: this.origin,
      path: `${this.prefix}${path}`,
      method,
      headers,
      body: payload ?? null,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      ...(signal ? { signal } : {}),
    });
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return JSON.parse(text === "" ? "{}" : text) as T;
    throw errorOf(res.statusCode, text, res.headers["retry-after"], [this.options.accessToken]);
  }
}

function enc(value: string): string {
  return encodeURIComponent(value);
}

/** The error of a non-2xx answer; a body that is not JSON is quoted in part, `secrets` removed first. */
function errorOf(
  status: number,
  text: string,
  retryAfter: string | string[] | undefined,
  secrets: readonly string[],
): MatrixHttpError {
  let parsed: { errcode?: unknown; error?: unknown; retry_after_ms?: unknown } = {};
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    // not JSON (a proxy's page): described by its status below
  }
  const header = Number(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  const retryAfterMs =
    typeof parsed.retry_after_ms === "number"
      ? parsed.retry_after_ms
      : Number.isFinite(header)
        ? header * 1000
        : undefined;
  return new MatrixHttpError(
    status,
    typeof parsed.errcode === "string" ? parsed.errcode : "M_UNKNOWN",
    typeof parsed.error === "string" ? parsed.error : redactedExcerpt(text, secrets) || `HTTP ${status}`,
    retryAfterMs,
  );
}
