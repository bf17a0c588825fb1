/**
 * What every media host does before it stores a byte: check the type and name, pick a fresh
 * key and the expiry, and wrap the stream so that it cannot pass `maxBytes` or its declared
 * size and stops the moment the put is cancelled. Exported so that hosts outside core (the
 * S3 one) refuse exactly what the self-hosted one refuses.
 */
import { MediaError, OutboxError, StoreError } from "../../errors/errors.js";
import { limitBytes } from "../byte-limit.js";
import { cleanFileName } from "../file-name.js";
import { normalizeMimeType } from "../sniff/mime.js";
import { newMediaKey } from "./signed-link.js";
import type { MediaToHost, PutMediaOptions } from "./types.js";

/** The host's settings a put is checked against. */
export interface MediaPutLimits {
  /** Link lifetime when the put names none, in milliseconds. */
  defaultTtlMs: number;
  /** Largest item accepted, in bytes. */
  maxBytes: number;
  /** Current time, milliseconds since the Unix epoch. */
  now: number;
}

/** A put, checked and ready to store. */
export interface PreparedMediaPut {
  /** A fresh random key (16 bytes, URL-safe base64): names nothing of the item. */
  key: string;
  /** The normalized MIME type. */
  mimeType: string;
  /** The cleaned file name (`file` when nothing is left of it). */
  fileName: string;
  /** The link's expiry, rounded down to a second (links carry seconds). */
  expiresAt: number;
  /** The link's lifetime from `now`, in whole seconds. */
  ttlSeconds: number;
  /** The bytes, counted against the limits and cut by the put's signal. */
  bytes: AsyncIterable<Uint8Array>;
}

/** `value` when it is a positive number, else a `RangeError` naming `name`. */
export function positiveMs(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${value}`);
  return value;
}

/**
 * Re-yields the bytes of `source`, failing with `signal`'s reason the moment it aborts, even
 * while `source` is waiting for its next chunk (a stalled upload must not hold the put).
 */
async function* untilAborted(
  source: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
): AsyncGenerator<Uint8Array> {
  if (signal === undefined) return yield* source;
  const iterator = source[Symbol.asyncIterator]();
  const aborted = new Promise<never>((_, reject) =>
    signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
  );
  aborted.catch(() => undefined);
  try {
    for (;;) {
      signal.throwIfAborted();
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: a source stuck in its own wait would hold the put until it answers.
    void iterator.return?.()?.catch(() => undefined);
  }
}

/**
 * Check one {@link MediaHost.put} before a byte is read: an invalid MIME type is a
 * `MediaError` (`unsupported-type`), a bad `ttlMs` a `RangeError`, an aborted signal its
 * reason. For implementers of {@link MediaHost}.
 */
export function prepareMediaPut(
  media: MediaToHost,
  options: PutMediaOptions,
  limits: MediaPutLimits,
): PreparedMediaPut {
  const ttl = positiveMs("ttlMs", options.ttlMs ?? limits.defaultTtlMs);
  const mimeType = normalizeMimeType(media.mimeType);
  const fileName = cleanFileName(media.fileName) || "file";
  if (mimeType === undefined)
    throw new MediaError(
      "unsupported-type",
      `Media ${fileName} has no valid MIME type to be served as; give one such as "application/pdf".`,
    );
  options.signal?.throwIfAborted();
  const expiresAt = Math.floor((limits.now + ttl) / 1000) * 1000;
  const bytes = limitBytes(untilAborted(media.open() as AsyncIterable<Uint8Array>, options.signal), {
    ref: fileName,
    maxBytes: limits.maxBytes,
    expectedSize: media.size,
  });
  return {
    key: newMediaKey(),
    mimeType,
    fileName,
    expiresAt,
    ttlSeconds: expiresAt / 1000 - Math.floor(limits.now / 1000),
    bytes,
  };
}

/**
 * What a put that failed while storing throws: Outbox's own errors (the item was too large,
 * or changed) and a cancellation as they are, anything from the store as a `StoreError`.
 */
export function putFailure(error: unknown, fileName: string, signal: AbortSignal | undefined): unknown {
  if (error instanceof OutboxError || signal?.aborted) return error;
  return new StoreError(
    `The media host could not keep ${fileName}: ${String((error as Error)?.message ?? error)}`,
    { cause: error },
  );
}
