/**
 * Markdown images `![alt](dest "title")` on one line, for opt-in lifting into media:
 * `<dest>` and raw destinations with balanced parentheses and backslash escapes, titles in
 * `"…"`, `'…'` or `(…)`. A destination or title never runs into another `![`, so each
 * character is read by at most one attempt and the scan stays linear.
 */
import { MAX_REFERENCE_LENGTH } from "./remote-url.js";
import { skipBlanks } from "./tags.js";

/** A Markdown image found in the text. */
export interface ImageMatch {
  /** The destination, escapes resolved. */
  url: string;
  /** Offset just after the closing `)`. */
  end: number;
}

/** The `]` matching each `[` of one line: `close[i - start]` is the offset of the `]` + 1, or 0. */
export interface Brackets {
  /** Offset of the line in the text. */
  start: number;
  /** Matches, indexed from the start of the line. */
  close: Int32Array;
  /** Scratch stack of open brackets. */
  open: Int32Array;
}

/**
 * Match the brackets of one line (backslash escapes respected) in a single pass. `reuse`
 * lends its buffers when they are large enough.
 */
export function matchBrackets(text: string, lineStart: number, lineEnd: number, reuse?: Brackets): Brackets {
  const length = lineEnd - lineStart;
  const fits = reuse !== undefined && reuse.close.length >= length;
  const close = fits ? reuse.close : new Int32Array(Math.max(length, 256));
  const open = fits ? reuse.open : new Int32Array(close.length);
  close.fill(0, 0, length);
  let depth = 0;
  for (let i = lineStart; i < lineEnd; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 91) open[depth++] = i;
    else if (c === 93 && depth > 0) close[(open[--depth] ?? 0) - lineStart] = i + 1;
  }
  return { start: lineStart, close, open };
}

/** Match an image at `at` (where the text holds `![`), using the line's bracket matches. */
export function matchImage(
  text: string,
  at: number,
  lineEnd: number,
  brackets: Brackets,
): ImageMatch | undefined {
  const close = (brackets.close[at + 1 - brackets.start] ?? 0) - 1;
  if (close < 0 || text.charCodeAt(close + 1) !== 40) return undefined;
  let i = skipBlanks(text, close + 2);
  let url: string;
  if (text.charCodeAt(i) === 60) {
    const start = i + 1;
    i = start;
    while (i < lineEnd && text.charCodeAt(i) !== 62) {
      const c = text.charCodeAt(i);
      if (c === 60 || i - start > MAX_REFERENCE_LENGTH || (c === 33 && text.charCodeAt(i + 1) === 91))
        return undefined;
      i += text.charCodeAt(i) === 92 ? 2 : 1;
    }
    if (i >= lineEnd) return undefined;
    url = resolveEscapes(text.slice(start, i));
    i++;
  } else {
    const start = i;
    let depth = 0;
    while (i < lineEnd) {
      const c = text.charCodeAt(i);
      if (
        c === 32 ||
        c === 9 ||
        i - start > MAX_REFERENCE_LENGTH ||
        (c === 33 && text.charCodeAt(i + 1) === 91)
      )
        break;
      if (c === 92 && isPunctuation(text.charCodeAt(i + 1))) {
        i += 2;
        continue;
      }
      if (c === 40) depth++;
      else if (c === 41) {
        if (depth === 0) break;
        depth--;
      }
      i++;
    }
    if (depth !== 0 || i === start) return undefined;
    url = resolveEscapes(text.slice(start, i));
  }
  i = skipBlanks(text, i);
  const opener = text.charCodeAt(i);
  if (opener === 34 || opener === 39 || opener === 40) {
    const closer = opener === 40 ? 41 : opener;
    i++;
    while (i < lineEnd && text.charCodeAt(i) !== closer) {
      if (text.charCodeAt(i) === 33 && text.charCodeAt(i + 1) === 91) return undefined;
      i += text.charCodeAt(i) === 92 ? 2 : 1;
    }
    if (i >= lineEnd) return undefined;
    i = skipBlanks(text, i + 1);
  }
  return text.charCodeAt(i) === 41 ? { url, end: i + 1 } : undefined;
}

function isPunctuation(code: number): boolean {
  return (
    (code >= 33 && code <= 47) ||
    (code >= 58 && code <= 64) ||
    (code >= 91 && code <= 96) ||
    (code >= 123 && code <= 126)
  );
}

/** Resolve backslash escapes of ASCII punctuation. */
function resolveEscapes(value: string): string {
  return value.replace(/\\([!-/:-@[-`{-~])/g, "$1");
}
