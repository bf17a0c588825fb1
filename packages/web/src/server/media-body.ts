/**
 * The body of a media response: the stored bytes' slice, or the store's stream of the range
 * asked for, held to exactly the bytes announced in `Content-Length`.
 */
import type { MediaRange, StoredMedia, StreamedMedia } from "../store/types.js";

/** Size of stored media in bytes. */
export function mediaSize(media: StoredMedia | StreamedMedia): number {
  return "data" in media ? media.data.byteLength : media.size;
}

/** The bytes of `range` (inclusive; the whole item without one). */
export function mediaBody(
  media: StoredMedia | StreamedMedia,
  range?: MediaRange,
): Uint8Array | ReadableStream<Uint8Array> {
  if ("data" in media)
    return range === undefined ? media.data : media.data.subarray(range.start, range.end + 1);
  const length = range === undefined ? media.size : range.end - range.start + 1;
  return exactly(media.open(range), length);
}

/** A stream of the first `length` bytes of `source`; failing when the source has fewer. */
function exactly(
  source: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
  length: number,
): ReadableStream<Uint8Array> {
  // Node's ReadableStream is async-iterable, as is every AsyncIterable.
  const iterator = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  let sent = 0;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) {
          if (sent < length)
            controller.error(new Error(`media stream ended after ${sent} of ${length} bytes`));
          else controller.close();
          return;
        }
        const chunk = next.value.subarray(0, length - sent);
        sent += chunk.byteLength;
        if (chunk.byteLength > 0) controller.enqueue(chunk);
        if (sent >= length) {
          controller.close();
          await iterator.return?.();
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
