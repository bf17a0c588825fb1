/**
 * What a text event weighs. The homeserver refuses an event over 65,536 bytes of canonical
 * JSON (`M_TOO_LARGE`, client-server API "Size limits"), counted on the whole PDU: content
 * plus the envelope the server adds (room id, sender, prev/auth events, hashes, signatures).
 * A chunk is measured as the heaviest event it may become, its edit (`m.replace`: the
 * fallback `body` outside, `body` and `formatted_body` again in `m.new_content`), so a live
 * preview settled into it never grows past the limit.
 */
import { bodyOf } from "./body.js";

/** Room left for the envelope the homeserver adds to the content (ids, hashes, signatures, prev/auth events). */
export const ENVELOPE_RESERVE_BYTES = 4096;
/** Homeserver limit on one event (spec: 65,536 bytes of canonical JSON). */
export const MAX_EVENT_BYTES = 65_536;
/** Most content bytes a chunk may weigh: the event limit less the envelope reserve. */
export const MAX_CONTENT_BYTES = MAX_EVENT_BYTES - ENVELOPE_RESERVE_BYTES;
/**
 * Bytes of everything but the texts in the heaviest text event: keys, `msgtype`, `format`,
 * the `* ` edit marker, and relations (`m.replace`, `m.thread` with its `m.in_reply_to`
 * fallback: three event ids of up to 255 bytes each).
 */
export const FIXED_CONTENT_BYTES = 1024;

/**
 * Below this many UTF-16 units a string's JSON bytes are counted here, unit by unit: two
 * native calls and a serialized copy cost more than the count for the small pieces a reply
 * of many tiny blocks is measured in (a third of the time); past it, they cost less.
 */
const COUNTED = 1024;

/** Control characters JSON writes in two characters (`\b \t \n \f \r`); the rest take six (`\u0001`). */
const SHORT_ESCAPES = new Set([8, 9, 10, 12, 13]);

/** A character JSON writes as more than one byte: anything outside printable ASCII. */
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/;

/** UTF-8 bytes of a string as a JSON string literal (quotes and escapes included). */
export function jsonBytes(text: string): number {
  if (text.length >= COUNTED) return Buffer.byteLength(JSON.stringify(text));
  // Printable ASCII (most replies, and every tag the renderer writes) is one byte a
  // character, `"` and `\` two: one native scan and a search for each, not a loop in JS.
  if (!NOT_PRINTABLE_ASCII.test(text))
    return text.length + 2 + occurrences(text, '"') + occurrences(text, "\\");
  let bytes = 2;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80)
      bytes += code >= 0x20 ? (code === 34 || code === 92 ? 2 : 1) : SHORT_ESCAPES.has(code) ? 2 : 6;
    else if (code < 0x800) bytes += 2;
    else if (code < 0xd800 || code > 0xdfff) bytes += 3;
    else if (code <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 6; // a lone surrogate is written `\uXXXX`
  }
  return bytes;
}

function occurrences(text: string, character: string): number {
  let count = 0;
  for (let at = text.indexOf(character); at !== -1; at = text.indexOf(character, at + 1)) count += 1;
  return count;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The weight of the heaviest event a chunk of Matrix HTML may become (its edit). */
export function eventWeight(html: string): number {
  const body = jsonBytes(bodyOf(html));
  return FIXED_CONTENT_BYTES + 2 * body + jsonBytes(html);
}
