/**
 * Stage two of parsing: read `MEDIA:` lines, drop the lines left empty, and tidy the text
 * (runs of blank lines left behind collapse to one, leading and trailing blank lines go).
 * Code is kept byte for byte. Media keep their place as offsets into the final text.
 */
import { type CodeRanges, codeRunsPast, inCode } from "./code-ranges.js";
import { mediaTokenAt, type RefusedReference, readMediaLine } from "./media-line.js";
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
  /** References on `MEDIA:` lines that were refused (only when extracting), in order. */
  refused: RefusedReference[];
}

const CONTENT = 0;
const BLANK = 1;
const DROPPED = 2;

/** A media reference on a line: column in the line's final text (0 on a dropped line). */
interface LineMedia {
  url: string;
  column: number;
}

/** The lines of the text after stage two, as parallel arrays (few objects for big texts). */
interface Lines {
  source: string;
  /** Offset where each line starts, ends (before CR LF), and where the next one starts. */
  starts: number[];
  ends: number[];
  nexts: number[];
  /** CONTENT, BLANK or DROPPED. */
  kinds: number[];
  /** Text of the lines stage two rewrote. */
  rewritten: Map<number, string>;
  /** Media found on each line. */
  media: Map<number, LineMedia[]>;
}

/** Run stage two over the output of stage one. */
export function assemble(removed: Removed, options: AssembleOptions): Assembled {
  const { text, code } = removed;
  if (removed.cuts.length === 0 && !hasDirectiveLine(text, code, options)) {
    return { text: text.trimEnd(), media: [], changed: false, refused: [] };
  }
  const refused: RefusedReference[] = [];
  const lines: Lines = {
    source: text,
    starts: [],
    ends: [],
    nexts: [],
    kinds: [],
    rewritten: new Map(),
    media: new Map(),
  };
  let changed = removed.cuts.length > 0;
  let cutAt = 0;
  let imageAt = 0;
  let start = 0;
  for (let index = 0; ; index++) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    let content: string | undefined;
    let touched = false;
    while (cutAt < removed.cuts.length && (removed.cuts[cutAt] ?? 0) <= end) {
      touched = true;
      cutAt++;
    }
    let media: LineMedia[] | undefined;
    while (imageAt < removed.images.length && (removed.images[imageAt]?.at ?? 0) <= end) {
      const image = removed.images[imageAt++];
      if (image && options.media === "extract") {
        media ??= [];
        media.push({ url: image.url, column: image.at - start });
      }
    }
    const blank = isBlankRange(text, start, contentEnd);
    let kind = blank && !inCode(code, start) ? BLANK : CONTENT;
    const token = options.media === "ignore" || blank ? -1 : mediaTokenAt(text, start, contentEnd);
    if (token !== -1 && isDirectiveLine(code, start, token, contentEnd)) {
      const read = readMediaLine(text.slice(start, contentEnd), token);
      if (options.media === "extract") refused.push(...read.refused);
      if (read.changed || options.media === "strip") {
        changed = true;
        let rest = options.media === "strip" ? undefined : read.rest;
        if (rest !== undefined && options.isUnsafeRest(rest)) rest = undefined;
        const references = options.media === "extract" ? read.references : [];
        media = [
          ...(media ?? []).map((image) => ({ url: image.url, column: 0 })),
          ...references.map((ref) => ({ url: ref.url, column: rest === undefined ? 0 : ref.column })),
        ];
        content = rest ?? "";
        touched = true;
      }
    }
    if (touched && (content === undefined ? blank : content.trim() === "")) kind = DROPPED;
    lines.starts.push(start);
    lines.ends.push(contentEnd);
    lines.nexts.push(newline === -1 ? text.length : newline + 1);
    lines.kinds.push(kind);
    if (content !== undefined) lines.rewritten.set(index, content);
    if (media && media.length > 0) lines.media.set(index, media);
    if (newline === -1) break;
    start = newline + 1;
  }
  if (!changed) return { text: text.trimEnd(), media: [], changed, refused };
  return { ...tidy(lines), changed, refused };
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

/**
 * Drop lines, collapse blank runs left behind, trim; place media in the final text.
 * Kept lines are line indexes; `-1 - i` stands for one blank line ending like line `i`.
 */
function tidy(lines: Lines): { text: string; media: PlacedMedia[] } {
  const { kinds } = lines;
  const kept: number[] = [];
  const pending: Array<{ url: string; line: number; column: number }> = [];
  let unplaced = 0;
  let i = 0;
  while (i < kinds.length) {
    if (kinds[i] === CONTENT) {
      for (const m of lines.media.get(i) ?? [])
        pending.push({ url: m.url, line: kept.length, column: m.column });
      unplaced = pending.length;
      kept.push(i);
      i++;
      continue;
    }
    let j = i;
    let blanks = 0;
    let dropped = false;
    for (; j < kinds.length && kinds[j] !== CONTENT; j++) {
      if (kinds[j] === BLANK) blanks++;
      else dropped = true;
      for (const m of lines.media.get(j) ?? []) pending.push({ url: m.url, line: -1, column: 0 });
    }
    if (!dropped) for (let k = i; k < j; k++) kept.push(k);
    else if (blanks > 0) kept.push(-1 - i);
    for (; unplaced < pending.length; unplaced++) {
      const m = pending[unplaced] as (typeof pending)[number];
      if (m.line === -1) m.line = kept.length;
    }
    i = j;
  }
  const isBlank = (entry: number): boolean => entry < 0 || kinds[entry] === BLANK;
  let first = 0;
  while (first < kept.length && isBlank(kept[first] ?? 0)) first++;
  let last = kept.length;
  while (last > first && isBlank(kept[last - 1] ?? 0)) last--;
  // Untouched lines that follow each other in the source are copied as one slice.
  const offsets: number[] = [];
  const pieces: string[] = [];
  let length = 0;
  let runFrom = -1;
  let runTo = -1;
  const flush = (): void => {
    if (runFrom !== -1) pieces.push(lines.source.slice(runFrom, runTo));
    runFrom = -1;
  };
  for (let k = first; k < last; k++) {
    offsets[k] = length;
    const entry = kept[k] ?? 0;
    const line = entry < 0 ? -1 - entry : entry;
    const lineEnd = lines.ends[line] ?? 0;
    const next = lines.nexts[line] ?? 0;
    const finalLine = k === last - 1;
    const body = entry < 0 ? "" : lines.rewritten.get(line);
    if (body === undefined && (next > lineEnd || finalLine)) {
      const from = lines.starts[line] ?? 0;
      const to = finalLine ? lineEnd : next;
      if (runFrom === -1 || runTo !== from) {
        flush();
        runFrom = from;
      }
      runTo = to;
      length += to - from;
      continue;
    }
    flush();
    const eol = finalLine ? "" : lines.source.slice(lineEnd, next) || "\n";
    const text = body ?? lines.source.slice(lines.starts[line], lineEnd);
    pieces.push(text, eol);
    length += text.length + eol.length;
  }
  flush();
  const text = pieces.join("").trimEnd();
  const media = pending.map((m) => {
    const at = m.line < first ? 0 : m.line >= last ? text.length : (offsets[m.line] ?? 0) + m.column;
    return { url: m.url, at: Math.min(at, text.length) };
  });
  return { text, media };
}
