/**
 * The transaction id of each event the adapter sends. The homeserver answers a repeated
 * `PUT …/send/{eventType}/{txnId}` (same access token) with the event it already stored,
 * so a resend after an ambiguous failure (timeout, reset, 5xx) cannot make a second event,
 * as long as the resend carries the same txnId.
 *
 * A send operation carries core's stable key (`OperationBase.key`: the same on every retry and,
 * for one send `idempotencyKey`, target and part, in every process), so its txnId is derived
 * from it and a resend from another process (a resumed journal) is deduplicated too, while
 * the homeserver still remembers the transaction. An operation without a key (an edit, a
 * redaction) gets a random id kept for the operation's life: the engine's retries of one
 * operation reuse the object, so they reuse the txnId.
 * Never derive it from the content: two equal messages in a row would become one.
 */
import { randomBytes } from "node:crypto";

const ids = new WeakMap<object, string>();

/** The txnId of an operation (the same for every attempt of it); `use` names a second event of one operation. */
export function txnIdOf(op: object, use = "event"): string {
  let id = ids.get(op);
  if (id === undefined) {
    const { key } = op as { key?: unknown };
    id = `outbox.${typeof key === "string" ? key : randomBytes(12).toString("base64url")}`;
    ids.set(op, id);
  }
  return use === "event" ? id : `${id}.${use}`;
}
