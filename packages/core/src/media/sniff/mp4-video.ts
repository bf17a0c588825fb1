/**
 * Width, height and duration of an MP4 or QuickTime video from its `moov` box, when the box
 * lies in the file's head (a "fast start" file, as the web and chat clients want them): the
 * first track whose `tkhd` has a size is the picture; `mvhd` holds the duration. No decoding.
 */

/** What the header tells of a video. */
export interface Mp4Video {
  /** Width in pixels of the first visual track. */
  width: number;
  /** Height in pixels of the first visual track. */
  height: number;
  /** Duration in milliseconds, when the movie header gives one. */
  durationMs?: number;
}

/** Boxes holding the boxes this reader needs. */
const CONTAINERS = new Set(["moov", "trak"]);

/** Read the picture size and duration from `head` (the first bytes of the file). */
export function readMp4Video(head: Uint8Array): Mp4Video | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  let size: { width: number; height: number } | undefined;
  let durationMs: number | undefined;
  const walk = (from: number, to: number): void => {
    for (let at = from; at + 8 <= to && size === undefined; ) {
      let length = view.getUint32(at);
      const type = String.fromCharCode(...head.subarray(at + 4, at + 8));
      let body = at + 8;
      if (length === 1 && at + 16 <= to) {
        length = Number(view.getBigUint64(at + 8));
        body = at + 16;
      }
      if (length < body - at || at + length > to) return; // runs past the head: not readable
      if (CONTAINERS.has(type)) walk(body, at + length);
      else if (type === "mvhd") durationMs = movieDuration(view, body, at + length);
      else if (type === "tkhd" && length >= 92) {
        const width = view.getUint32(at + length - 8) / 65_536;
        const height = view.getUint32(at + length - 4) / 65_536;
        if (width >= 1 && height >= 1) size = { width: Math.round(width), height: Math.round(height) };
      }
      at += length;
    }
  };
  walk(0, head.length);
  if (size === undefined) return undefined;
  return durationMs === undefined ? size : { ...size, durationMs };
}

/** `mvhd` duration in milliseconds (version 0: 32-bit fields, version 1: 64-bit). */
function movieDuration(view: DataView, body: number, end: number): number | undefined {
  const version = view.getUint8(body);
  const [scaleAt, needed] = version === 1 ? [body + 20, body + 32] : [body + 12, body + 20];
  if (needed > end) return undefined;
  const timescale = view.getUint32(scaleAt);
  const duration = version === 1 ? Number(view.getBigUint64(scaleAt + 4)) : view.getUint32(scaleAt + 4);
  return timescale > 0 ? Math.round((duration * 1000) / timescale) : undefined;
}
