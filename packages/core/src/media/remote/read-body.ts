/**
 * Reading response bodies: status and length checks, the probe read at load time (head,
 * byte count, OGG tail) and the idle timeout of re-opened streams.
 */
import { MediaError } from "../../errors/errors.js";
import { assertWithinCap, type ByteLimit } from "../byte-limit.js";
import { formatBytes } from "../policy.js";
import { HEAD_BYTES } from "../sniff/inspect.js";
import { OGG_TAIL_BYTES } from "../sniff/ogg-duration.js";
import { discardBody, type GuardedResponse, headerValue } from "./fetch-guarded.js";

/** What the load-time read learned. */
export interface Probe {
  /** The first bytes. */
  head: Uint8Array;
  /** The last bytes, when the whole body was read. */
  tail: Uint8Array | undefined;
  /** The size: `content-length` when sent, else the counted bytes. */
  size: number;
}

/** The `content-length` header as a number, if present and valid. */
function contentLength(response: GuardedResponse): number | undefined {
  const value = headerValue(response.headers, "content-length");
  return value !== undefined && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * Refuses error statuses (404/410 → `not-found`, others → `fetch-failed`) and a
 * `content-length` above the cap, before any body byte is read. Returns the declared length.
 */
export function checkResponse(response: GuardedResponse, limit: ByteLimit): number | undefined {
  const label = limit.label ?? limit.ref;
  if (response.statusCode < 200 || response.statusCode > 299) {
    discardBody(response.body);
    const missing = response.statusCode === 404 || response.statusCode === 410;
    throw new MediaError(
      missing ? "not-found" : "fetch-failed",
      `Media ${label} answered HTTP ${response.statusCode}${missing ? " (not found)" : ""}.`,
      { ref: limit.ref },
    );
  }
  const declared = contentLength(response);
  if (declared !== undefined) {
    try {
      assertWithinCap(declared, limit);
    } catch (error) {
      discardBody(response.body);
      throw error;
    }
  }
  return declared;
}

/**
 * Reads what loading needs. With a `content-length`, only the first {@link HEAD_BYTES};
 * without one, the whole body once, counted and discarded as it streams (only the head
 * and, for OGG, the last {@link OGG_TAIL_BYTES} are kept), aborting past the cap.
 */
export async function probeBody(response: GuardedResponse, limit: ByteLimit): Promise<Probe> {
  const declared = checkResponse(response, limit);
  const headChunks: Uint8Array[] = [];
  let headLength = 0;
  const tailChunks: Uint8Array[] = [];
  let tailLength = 0;
  let count = 0;
  let complete = true;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    count += chunk.byteLength;
    assertWithinCap(count, limit);
    if (headLength < HEAD_BYTES) {
      headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
      headLength += Math.min(chunk.byteLength, HEAD_BYTES - headLength);
    }
    tailChunks.push(chunk);
    tailLength += chunk.byteLength;
    while (tailChunks.length > 1 && tailLength - (tailChunks[0]?.byteLength ?? 0) >= OGG_TAIL_BYTES) {
      tailLength -= tailChunks.shift()?.byteLength ?? 0;
    }
    if (declared !== undefined && headLength >= HEAD_BYTES) {
      complete = count === declared;
      break;
    }
  }
  discardBody(response.body);
  if (complete && declared !== undefined && count !== declared) {
    throw new MediaError(
      "fetch-failed",
      `Media ${limit.label ?? limit.ref} ended after ${formatBytes(count)} of the ${formatBytes(declared)} announced.`,
      { ref: limit.ref },
    );
  }
  return {
    head: Buffer.concat(headChunks),
    tail: complete ? Buffer.concat(tailChunks) : undefined,
    size: declared ?? count,
  };
}

/**
 * Re-yields a response body, failing with `fetch-failed` when the server sends nothing
 * for `timeoutMs` (time the consumer spends between reads does not count).
 */
export async function* withIdleTimeout(
  response: GuardedResponse,
  timeoutMs: number,
  limit: ByteLimit,
): AsyncGenerator<Uint8Array> {
  const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  try {
    for (;;) {
      timer = setTimeout(
        () =>
          response.body.destroy(
            new MediaError("fetch-failed", `Media ${limit.label ?? limit.ref} stalled for ${timeoutMs} ms.`, {
              ref: limit.ref,
            }),
          ),
        timeoutMs,
      );
      const step = await iterator.next();
      clearTimeout(timer);
      if (step.done) return;
      yield step.value;
    }
  } finally {
    clearTimeout(timer);
    discardBody(response.body);
  }
}

/**
 * The last {@link OGG_TAIL_BYTES} of a body fetched with a `Range` request, when the
 * server honoured it (206 and no more bytes than asked for); otherwise undefined, without
 * reading a full body.
 */
export async function readRangeTail(response: GuardedResponse): Promise<Uint8Array | undefined> {
  if (response.statusCode !== 206) {
    discardBody(response.body);
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    length += chunk.byteLength;
    if (length > OGG_TAIL_BYTES) {
      discardBody(response.body);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
