/**
 * Reads a media item's bytes into memory, never more than a cap: the stream is abandoned
 * as soon as it passes the cap, so memory stays bounded by the limit, not by the source.
 */
import type { LoadedMedia } from "@outbox/core";

/** The item's bytes, or `undefined` when it holds more than `cap` bytes (reading stops there). */
export async function readCapped(media: LoadedMedia, cap: number): Promise<Buffer | undefined> {
  if (media.size > cap) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of media.open()) {
    total += chunk.byteLength;
    if (total > cap) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}
