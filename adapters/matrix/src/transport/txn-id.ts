/**
 * The transaction id of each event the adapter sends. The homeserver answers a repeated
 * `PUT …/send/{eventType}/{txnId}` (same access token) with the event it already stored,
 * so a resend after an ambiguous failure (timeout, reset, 5xx) cannot make a second event,
 * as long as the resend carries the same txnId.
 *
 * THE ONE PLACE TO SWITCH: once core's `Operation` carries a stable per-operation key (issue
 * 21, branch ex21core), derive the txnId from it here (`outbox.${sha256(key)}`), so a resend
 * from another process (a resumed `idempotencyKey` journal) is deduplicated too. Until then
 * the id is random per operation object and kept for its life: the engine's retries of one
 * operation reuse the object, so they reuse the txnId; a resume in a new process does not.
 * Never derive it from the content: two equal messages in a row would become one.
 */
import { randomBytes } from "node:crypto";

const ids = new WeakMap<object, string>();

/** The txnId of an operation (the same for every attempt of it); `use` names a second event of one operation. */
export function txnIdOf(op: object, use = "event"): string {
  let id = ids.get(op);
  if (id === undefined) {
    id = `outbox.${randomBytes(12).toString("base64url")}`;
    ids.set(op, id);
  }
  return use === "event" ? id : `${id}.${use}`;
}
