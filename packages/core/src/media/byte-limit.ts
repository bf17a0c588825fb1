/**
 * Counting byte streams: every stream of media bytes passes through here, so no item can
 * grow past the policy's `maxBytes` or past the size announced when it was loaded.
 */
import { MediaError } from "../errors/errors.js";
import { formatBytes } from "./policy.js";

/** Limits applied while streaming. */
export interface ByteLimit {
  /** The reference as given (the error's `ref`). */
  ref: string;
  /** How messages show the reference (a URL without its query string); default `ref`. */
  label?: string;
  /** The policy's cap: passing it throws `too-large` at once. */
  maxBytes: number;
  /** The size announced at load time: a different count throws `fetch-failed`. */
  expectedSize?: number;
}

/** Throws `too-large` when `count` passed the cap. */
export function assertWithinCap(count: number, limit: ByteLimit): void {
  if (count > limit.maxBytes) {
    throw new MediaError(
      "too-large",
      `Media ${limit.label ?? limit.ref} is larger than the limit of ${formatBytes(limit.maxBytes)}; send a smaller file or raise maxBytes.`,
      { ref: limit.ref },
    );
  }
}

function changed(limit: ByteLimit, count: number): MediaError {
  return new MediaError(
    "fetch-failed",
    `Media ${limit.label ?? limit.ref} changed since it was loaded (${formatBytes(limit.expectedSize ?? 0)} then, ${count === Number.POSITIVE_INFINITY ? "more" : formatBytes(count)} now); load it again.`,
    { ref: limit.ref },
  );
}

/**
 * Re-yields `source`, counting bytes: throws the moment the count passes the cap or the
 * expected size, and at the end when the count falls short of the expected size.
 */
export async function* limitBytes(
  source: AsyncIterable<Uint8Array>,
  limit: ByteLimit,
): AsyncGenerator<Uint8Array> {
  let count = 0;
  for await (const chunk of source) {
    count += chunk.byteLength;
    assertWithinCap(count, limit);
    if (limit.expectedSize !== undefined && count > limit.expectedSize)
      throw changed(limit, Number.POSITIVE_INFINITY);
    yield chunk;
  }
  if (limit.expectedSize !== undefined && count !== limit.expectedSize) throw changed(limit, count);
}
