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

/** UTF-8 bytes of a string as a JSON string literal (quotes and escapes included). */
export function jsonBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text));
}

/** The weight of the heaviest event a chunk of Matrix HTML may become (its edit). */
export function eventWeight(html: string): number {
  const body = jsonBytes(bodyOf(html));
  return FIXED_CONTENT_BYTES + 2 * body + jsonBytes(html);
}
