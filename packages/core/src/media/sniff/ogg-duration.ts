/**
 * Duration of an OGG Opus or Vorbis stream from its first page (codec header) and the
 * last page's granule position: no decoding, only the file's head and tail.
 */

/** How many bytes of the end of a file contain the start of its last OGG page (max page size). */
export const OGG_TAIL_BYTES = 65_307;

const CAPTURE = [0x4f, 0x67, 0x67, 0x53]; // "OggS"

function isCapture(bytes: Uint8Array, at: number): boolean {
  return CAPTURE.every((byte, index) => bytes[at + index] === byte);
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/** Samples per second and samples to skip at the start, from the first page's codec header. */
function codecClock(head: Uint8Array): { rate: number; preSkip: number } | undefined {
  if (head.length < 28 || !isCapture(head, 0)) return undefined;
  const body = 27 + (head[26] ?? 0);
  if (head.length < body + 19) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (ascii(head, body, 8) === "OpusHead") return { rate: 48_000, preSkip: view.getUint16(body + 10, true) };
  if (head[body] === 1 && ascii(head, body + 1, 6) === "vorbis") {
    const rate = view.getUint32(body + 12, true);
    return rate > 0 ? { rate, preSkip: 0 } : undefined;
  }
  return undefined;
}

/** The granule position of the last page in `tail` that has one. */
function lastGranule(tail: Uint8Array): bigint | undefined {
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let at = tail.length - 27; at >= 0; at -= 1) {
    if (!isCapture(tail, at)) continue;
    const granule = view.getBigUint64(at + 6, true);
    if (granule !== 0xffff_ffff_ffff_ffffn) return granule;
  }
  return undefined;
}

/** Whether bytes start with an OGG page ("OggS"). */
export function isOggHead(head: Uint8Array): boolean {
  return isCapture(head, 0);
}

/**
 * The duration in milliseconds of an OGG Opus/Vorbis file, given its first bytes and its
 * last {@link OGG_TAIL_BYTES} bytes (the same array for a small file). Undefined when
 * either part is not recognized.
 */
export function readOggDurationMs(head: Uint8Array, tail: Uint8Array): number | undefined {
  const clock = codecClock(head);
  const granule = lastGranule(tail);
  if (clock === undefined || granule === undefined) return undefined;
  const samples = Number(granule) - clock.preSkip;
  return samples > 0 ? Math.round((samples * 1000) / clock.rate) : undefined;
}
