/**
 * The key of each send operation (`OperationBase.key`): a hash of the send's key (its
 * `idempotencyKey`, or a random id per send), the target, the part and what the operation
 * sends of it, so it is the same on every retry and in every process that repeats the send.
 */
import { hash, randomUUID } from "node:crypto";

/** What an operation of a part sends: the part itself, or its caption rescued as text. */
export type OperationRole = "part" | "caption";

/**
 * The key of a send without `idempotencyKey`: random characters its operations' keys start
 * with. No other process repeats such a send, so they need no hash binding them to the target.
 */
export interface RandomSendKey {
  /** 18 random hexadecimal digits (72 bits). */
  random: string;
}

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** The key of the operation sending `role` of part `part` of send `sendKey` to `to`. */
export function operationKey(
  sendKey: string | RandomSendKey,
  to: string,
  part: number,
  role: OperationRole,
): string {
  if (typeof sendKey !== "string") {
    // The random digits, then the part and role in six base64url digits: 24 characters, as a hash's.
    let n = part * 2 + (role === "caption" ? 1 : 0);
    let suffix = "";
    for (let i = 0; i < 6; i += 1, n = Math.floor(n / 64)) suffix = DIGITS[n % 64] + suffix;
    return sendKey.random + suffix;
  }
  // One-shot hash: a third of createHash's cost on a string this short.
  return hash("sha256", JSON.stringify([sendKey, to, part, role]), "base64url").slice(0, 24);
}

/** A send key for a send without `idempotencyKey`: random, so its operations' keys are its own. */
export function randomSendKey(): RandomSendKey {
  // Random hex digits of a v4 UUID (its version and variant digits left out).
  const uuid = randomUUID();
  return { random: uuid.slice(0, 8) + uuid.slice(9, 13) + uuid.slice(24, 30) };
}
