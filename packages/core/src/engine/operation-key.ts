/**
 * The key of each send operation (`OperationBase.key`): a hash of the send's `idempotencyKey`,
 * the target, the part and what the operation sends of it, so it is the same on every retry
 * and in every process that repeats the send; without a key, the send's own digits
 * ({@link RandomSendKey}) and the part's.
 */
import { hash, randomBytes } from "node:crypto";

/** What an operation of a part sends: the part itself, or its caption rescued as text. */
export type OperationRole = "part" | "caption";

/**
 * The key of a send without `idempotencyKey`: characters its operations' keys start with,
 * this process's and this send's own. No other process repeats such a send, so they need no
 * hash binding them to the target.
 */
export interface RandomSendKey {
  /** 18 base64url digits: 12 random per process (72 bits), then 6 counting its sends. */
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
    // The send's digits, then the part and role in six more: 24 characters, as a hash's.
    return sendKey.random + sixDigits(part * 2 + (role === "caption" ? 1 : 0));
  }
  // One-shot hash: a third of createHash's cost on a string this short.
  return hash("sha256", JSON.stringify([sendKey, to, part, role]), "base64url").slice(0, 24);
}

/** Sends numbered under {@link prefix}: six base64url digits' worth, then a new prefix. */
const PER_PREFIX = 64 ** 6;
let prefix = "";
let sends = PER_PREFIX;

/**
 * A send key for a send without `idempotencyKey`: a random prefix drawn once per process, and
 * the send's number. Unique among the process's sends, as random digits per send would only
 * be likely to be, and with no random draw per send.
 */
export function randomSendKey(): RandomSendKey {
  if (sends === PER_PREFIX) {
    prefix = randomBytes(9).toString("base64url");
    sends = 0;
  }
  const key = { random: prefix + sixDigits(sends) };
  sends += 1;
  return key;
}

/** `n` (below 64⁶) as six base64url digits, most significant first. */
function sixDigits(n: number): string {
  let out = "";
  for (let i = 0, rest = n; i < 6; i += 1, rest = Math.floor(rest / 64)) out = DIGITS[rest % 64] + out;
  return out;
}
