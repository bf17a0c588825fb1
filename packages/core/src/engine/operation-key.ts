/**
 * The key of each send operation (`OperationBase.key`): a hash of the send's key (its
 * `idempotencyKey`, or a random id per send), the target, the part and what the operation
 * sends of it, so it is the same on every retry and in every process that repeats the send.
 */
import { hash, randomUUID } from "node:crypto";

/** What an operation of a part sends: the part itself, or its caption rescued as text. */
export type OperationRole = "part" | "caption";

/** The key of the operation sending `role` of part `part` of send `sendKey` to `to`. */
export function operationKey(sendKey: string, to: string, part: number, role: OperationRole): string {
  // One-shot hash: a third of createHash's cost on a string this short.
  return hash("sha256", JSON.stringify([sendKey, to, part, role]), "base64url").slice(0, 24);
}

/** A send key for a send without `idempotencyKey`: random, so its operations' keys are its own. */
export function randomSendKey(): string {
  return randomUUID();
}
