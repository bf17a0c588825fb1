/**
 * Reply and voice tags: `[[audio_as_voice]]`, `[[reply_to_current]]`, `[[reply_to:<id>]]`.
 * Case-insensitive, spaces and tabs allowed inside the brackets and around the colon.
 */
import type { NextIndex } from "./next-index.js";

/** A tag found in the text, with the `[start, end)` it occupies. */
export type Tag =
  | { kind: "audio_as_voice" | "reply_to_current"; start: number; end: number }
  | { kind: "reply_to"; id: string; start: number; end: number };

/**
 * Match a tag at `at` (where the text holds `[[`). `idStop` finds the next `]` or newline,
 * which bounds a `reply_to` id. Returns the tag with the offset just after its `]]`.
 */
export function matchTag(text: string, at: number, idStop: NextIndex): Tag | undefined {
  let i = skipBlanks(text, at + 2);
  const nameStart = i;
  while (i - nameStart < 20 && isNameChar(text.charCodeAt(i))) i++;
  const name = nameAt(text, nameStart, i - nameStart);
  i = skipBlanks(text, i);
  if (name === "audio_as_voice" || name === "reply_to_current") {
    return text.startsWith("]]", i) ? { kind: name, start: at, end: i + 2 } : undefined;
  }
  if (name !== "reply_to" || text.charCodeAt(i) !== 58) return undefined;
  const stop = idStop.at(i + 1);
  if (stop === -1 || !text.startsWith("]]", stop)) return undefined;
  const id = text.slice(i + 1, stop).trim();
  return id === "" ? undefined : { kind: "reply_to", id, start: at, end: stop + 2 };
}

/** Skip spaces and tabs. */
export function skipBlanks(text: string, from: number): number {
  let i = from;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return i;
}

/** The tag name of `length` characters at `at`, if it is one. */
function nameAt(
  text: string,
  at: number,
  length: number,
): "audio_as_voice" | "reply_to_current" | "reply_to" | undefined {
  if (length === 8) return equalsIgnoringCase(text, at, "reply_to") ? "reply_to" : undefined;
  if (length === 14) return equalsIgnoringCase(text, at, "audio_as_voice") ? "audio_as_voice" : undefined;
  if (length === 16) return equalsIgnoringCase(text, at, "reply_to_current") ? "reply_to_current" : undefined;
  return undefined;
}

/** Whether `text` holds `word` (lower case ASCII and `_`) at `at`, in any case. */
function equalsIgnoringCase(text: string, at: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) {
    const c = text.charCodeAt(at + k);
    const w = word.charCodeAt(k);
    if (c !== w && (c | 32) !== w) return false;
  }
  return true;
}

function isNameChar(code: number): boolean {
  return code === 95 || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}
