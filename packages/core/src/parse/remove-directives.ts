/**
 * Stage one of parsing: cut the inline directives (tags, embeds, images) out of the text.
 * The whitespace run around a removed directive becomes one space, or nothing at the
 * start or end of a line; all cuts happen in one pass, so a cut never makes a new tag.
 */
import type { CodeRanges } from "./code-ranges.js";
import type { Found } from "./directive-scan.js";

/** The text after stage one, with what stage two needs to know about it. */
export interface Removed {
  /** The text with directives cut out. */
  text: string;
  /** Code ranges, in offsets of `text`. */
  code: CodeRanges;
  /** Offsets in `text` where something was cut (sorted). */
  cuts: number[];
  /** Lifted images: offset in `text` and URL, in order. */
  images: Array<{ at: number; url: string }>;
}

/** Cut `found` (in order, not overlapping) out of `text`. */
export function removeDirectives(text: string, code: CodeRanges, found: readonly Found[]): Removed {
  if (found.length === 0) return { text, code, cuts: [], images: [] };
  const pieces: string[] = [];
  const bounds: number[] = [];
  const cuts: number[] = [];
  const images: Removed["images"] = [];
  let length = 0;
  let copied = 0;
  let codeAt = 0;
  const copy = (to: number): void => {
    const shift = length - copied;
    const source = code.bounds;
    while (codeAt < source.length && (source[codeAt] ?? 0) < to) {
      const start = source[codeAt] ?? 0;
      const end = source[codeAt + 1] ?? 0;
      if (start >= copied && end <= to) bounds.push(start + shift, end + shift);
      codeAt += 2;
    }
    pieces.push(text.slice(copied, to));
    length += to - copied;
    copied = to;
  };
  let index = 0;
  while (index < found.length) {
    const first = found[index] as Found;
    let start = first.start;
    while (start > copied && isBlank(text.charCodeAt(start - 1))) start--;
    let end = first.end;
    const group: Found[] = [first];
    for (;;) {
      while (isBlank(text.charCodeAt(end))) end++;
      const next = found[index + group.length];
      if (!next || next.start !== end) break;
      group.push(next);
      end = next.end;
    }
    copy(start);
    const atLineStart = start === 0 || text.charCodeAt(start - 1) === 10;
    const atLineEnd = end >= text.length || text.charCodeAt(end) === 10 || text.startsWith("\r\n", end);
    const replacement = atLineStart || atLineEnd ? "" : " ";
    for (const item of group) if (item.kind === "image") images.push({ at: length, url: item.url });
    cuts.push(length);
    pieces.push(replacement);
    length += replacement.length;
    // Skip code that lay inside a removed block embed.
    while (codeAt < code.bounds.length && (code.bounds[codeAt] ?? 0) < end) codeAt += 2;
    copied = end;
    index += group.length;
  }
  copy(text.length);
  return { text: pieces.join(""), code: { bounds }, cuts, images };
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}
