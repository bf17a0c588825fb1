/**
 * The two readings every HTTP adapter makes of a failed call: how long a 429's `Retry-After`
 * asks to wait, and what a network failure means for a resend. One place, so every platform
 * judges a lost answer by the same rule (docs/delivery.md).
 */
import { OutboxError, TransportError } from "./errors.js";
import { neverLeft } from "./never-sent.js";

/** Response headers as undici and Node's `http` give them. */
export type HeaderValues = Record<string, string | string[] | undefined>;

/**
 * The `Retry-After` header in milliseconds, when it is a number of seconds (the form the
 * platforms and their proxies send); undefined when absent, negative or not a number.
 */
export function retryAfterMs(headers: HeaderValues): number | undefined {
  const value = headers["retry-after"];
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === "") return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}

/**
 * A call that failed without an answer, as a `TransportError` named `${call}: request failed
 * (code)`: ambiguous unless the request provably never left (core's `neverLeft`), the cause
 * kept. An `OutboxError` (one the client already judged) passes unchanged.
 */
export function networkFailure(call: string, error: unknown): OutboxError {
  if (error instanceof OutboxError) return error;
  const reason = networkCode(error) ?? (error instanceof Error ? error.name : "network failure");
  return new TransportError(`${call}: request failed (${reason})`, {
    ambiguous: !neverLeft(error),
    cause: error,
  });
}

/** The first string `code` on the error or the errors it wraps (undici puts the socket's on `cause`). */
function networkCode(error: unknown): string | undefined {
  let e = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; typeof e === "object" && e !== null && depth < 4; depth += 1) {
    if (typeof e.code === "string") return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}
