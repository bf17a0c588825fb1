/**
 * The client-assigned message id of a send: derived from the operation's key (the same on
 * every attempt, and in every process for the same `idempotencyKey`, target and part), in the
 * form Google accepts ("Name a message"): `client-` then lowercase letters, digits and
 * hyphens, 63 characters at most. The key's characters include capitals and `_`, so it is
 * hashed: `client-` and 40 hex digits of its SHA-256.
 */
import { hash } from "node:crypto";

/** The `messageId` for an operation key. */
export function clientMessageId(key: string): string {
  return `client-${hash("sha256", key, "hex").slice(0, 40)}`;
}
