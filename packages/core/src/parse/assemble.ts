/**
 * Stage two of parsing: read `MEDIA:` lines, drop the lines left empty, and tidy the text
 * (runs of blank lines left behind collapse to one, leading and trailing blank lines go).
 * Code is kept byte for byte. Media keep their place as offsets into the final text.
 */
import { type CodeRanges, codeRunsPast, inCode } from "./code-ranges.js";
import { mediaTokenAt, readMediaLine } from "./media-line.js";
import type { Removed } from "./remove-directives.js";

/** How stage two treats `MEDIA:` lines. */
export interface AssembleOptions {
  /** `extract` and `strip` read directive lines; `ignore` leaves them as text. */
  media: "extract" | "strip" | "ignore";
  /** Whether left-over text on a `MEDIA:` line would be read as a directive on a second pass. */
  isUnsafeRest: (rest: string) => boolean;
}

/** A media reference at its place in the final text. */
export interface PlacedMedia {
  /** The reference. */
  url: string;
  /** Offset in the final text. */
  at: number;
}

/** The final text and what was found in stage two. */
export interface Assembled {
  /** The cleaned text. */
  text: string;
  /** Media (images from stage one and `MEDIA:` references), in order. */
  media: PlacedMedia[];
  /** Whether anything was extracted or removed, in either stage. */
  changed: boolean;
}

const NO_MEDIA: Line["media"] = [];

interface Line {
  /** The line's text when stage two rewrote it; otherwise `source[start, end)`. */
  text: string | undefined;
  start: number;
  end: number;
  /** `\n`, `\r\n`, or `""` for the last line. */
  eol: string;
  kind: "content" | "blank" | "dropped";
  /** Media on this line: column in `text` (for a dropped line: 0). */
  media: Array<{ url: string; column: number }>;
}

/** Run stage two over the output of stage one. */
export function assemble(removed: Removed, options: AssembleOptions): Assembled {
  const { text, code } = removed;
  if (removed.cuts.length === 0 && !hasDirectiveLine(text, code, options)) {
    return { text: text.trimEnd(), media: [], changed: false };
  }
  const lines: Line[] = [];
  let changed = removed.cuts.length > 0;
  let cutAt = 0;
  let imageAt = 0;
  let start = 0;
  for (;;) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const eol = newline === -1 ? "" : text.slice(contentEnd, end + 1);
    let content: string | undefined;
    let touched = false;
    while (cutAt < removed.cuts.length && (removed.cuts[cutAt] ?? 0) <= end) {
      touched = true;
      cutAt++;
    }
    let media: Line["media"] = NO_MEDIA;
    while (imageAt < removed.images.length && (removed.images[imageAt]?.at ?? 0) <= end) {
      const image = removed.images[imageAt++];
      if (image && options.media === "extract")
        media = [...media, { url: image.url, column: image.at - start }];
    }
    const blank = isBlankRange(text, start, contentEnd);
    let kind: Line["kind"] = blank && !inCode(code, start) ? "blank" : "content";
    const token = options.media === "ignore" || blank ? -1 : mediaTokenAt(text, start, contentEnd);
    if (token !== -1 && isDirectiveLine(code, start, token, contentEnd)) {
      const read = readMediaLine(text.slice(start, contentEnd), token);
      if (read.changed || options.media === "strip") {
        changed = true;
        let rest = options.media === "strip" ? undefined : read.rest;
        if (rest !== undefined && options.isUnsafeRest(rest)) rest = undefined;
        const references = options.media === "extract" ? read.references : [];
        media = [
          ...media.map((image) => ({ url: image.url, column: 0 })),
          ...references.map((ref) => ({ url: ref.url, column: rest === undefined ? 0 : ref.column })),
        ];
        content = rest ?? "";
        touched = true;
      }
    }
    if (touched && (content === undefined ? blank : content.trim() === "")) kind = "dropped";
    lines.push({ text: content, start, end: contentEnd, eol, kind, media });
    if (newline === -1) break;
    start = newline + 1;
  }
  if (!changed) return { text: text.trimEnd(), media: [], changed };
  return { ...tidy(text, lines), changed };
}

function isBlankRange(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** Whether any line would change in stage two (jumps from one `MEDIA:` to the next). */
function hasDirectiveLine(text: string, code: CodeRanges, options: AssembleOptions): boolean {
  if (options.media === "ignore") return false;
  for (let at = text.indexOf("MEDIA:"); at !== -1; at = text.indexOf("MEDIA:", at + 1)) {
    let before = at - 1;
    while (text.charCodeAt(before) === 32 || text.charCodeAt(before) === 9) before--;
    if ((before < 0 || text.charCodeAt(before) === 10) && !inCode(code, at)) return true;
  }
  return false;
}

/** A `MEDIA:` token outside code, whose payload opens no code span running past the line. */
function isDirectiveLine(code: CodeRanges, lineStart: number, token: number, lineEnd: number): boolean {
  const at = lineStart + token;
  return !inCode(code, at) && !codeRunsPast(code, at, lineEnd);
}

/** Drop lines, collapse blank runs left behind, trim; place media in the final text. */
function tidy(source: string, lines: Line[]): { text: string; media: PlacedMedia[] } {
  const kept: Line[] = [];
  const pending: Array<{ url: string; line: number; column: number }> = [];
  let unplaced = 0;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] as Line;
    if (line.kind === "content") {
      for (const m of line.media) pending.push({ url: m.url, line: kept.length, column: m.column });
      unplaced = pending.length;
      kept.push(line);
      i++;
      continue;
    }
    let j = i;
    let blanks = 0;
    let dropped = false;
    while (j < lines.length && (lines[j] as Line).kind !== "content") {
      const run = lines[j] as Line;
      if (run.kind === "blank") blanks++;
      else dropped = true;
      for (const m of run.media) pending.push({ url: m.url, line: -1, column: 0 });
      j++;
    }
    if (dropped && blanks > 0)
      kept.push({
        text: "",
        start: 0,
        end: 0,
        eol: (lines[i] as Line).eol || "\n",
        kind: "blank",
        media: NO_MEDIA,
      });
    else if (!dropped) for (let k = i; k < j; k++) kept.push(lines[k] as Line);
    for (; unplaced < pending.length; unplaced++) {
      const m = pending[unplaced] as (typeof pending)[number];
      if (m.line === -1) m.line = kept.length;
    }
    i = j;
  }
  let first = 0;
  while (first < kept.length && (kept[first] as Line).kind === "blank") first++;
  let last = kept.length;
  while (last > first && (kept[last - 1] as Line).kind === "blank") last--;
  const offsets: number[] = [];
  let out = "";
  for (let k = first; k < last; k++) {
    offsets[k] = out.length;
    const line = kept[k] as Line;
    out += (line.text ?? source.slice(line.start, line.end)) + (k < last - 1 ? line.eol || "\n" : "");
  }
  const text = out.trimEnd();
  const media = pending.map((m) => {
    const at = m.line < first ? 0 : m.line >= last ? text.length : (offsets[m.line] ?? 0) + m.column;
    return { url: m.url, at: Math.min(at, text.length) };
  });
  return { text, media };
}
