/**
 * The `Range` header of a request to the media host. One range only: a list (`0-0,2-2,…`)
 * is refused rather than served, since overlapping or many small ranges make a small
 * request cost a large response (and multipart answers are something no platform asks for).
 */
import type { ByteRange } from "./types.js";

/** Longest `Range` header read; anything longer is refused unread. */
const MAX_HEADER_LENGTH = 64;

/** `bytes=first-last`, `bytes=first-` or `bytes=-suffix`, decimal digits only. */
const SINGLE = /^bytes=([0-9]{0,15})-([0-9]{0,15})$/;

/**
 * The range `header` asks for in an item of `size` bytes: `undefined` without a header
 * (the whole item), `"unsatisfiable"` for anything that is not one range inside the item
 * (answered 416), otherwise the inclusive byte range, its end clamped to the item.
 */
export function requestedRange(header: string | null, size: number): ByteRange | "unsatisfiable" | undefined {
  if (header === null) return undefined;
  const match = header.length > MAX_HEADER_LENGTH ? null : SINGLE.exec(header.trim());
  const [, first = "", last = ""] = match ?? [];
  if (match === null || (first === "" && last === "") || size === 0) return "unsatisfiable";
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return start >= size || end < start ? "unsatisfiable" : { start, end };
}
