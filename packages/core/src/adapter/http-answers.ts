/**
 * Pieces every adapter with its own thin HTTP client needs (Teams, Google Chat): a JSON
 * object out of an answer's body, a `Retry-After` in milliseconds, and a network failure as
 * core's `TransportError`, ambiguous unless the request never left.
 */
import { RateLimitedError, TransportError } from "../errors/errors.js";
import { neverLeft } from "../errors/never-sent.js";

/** An answer's headers as undici gives them. */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** The body as a JSON object, or undefined (not JSON, or not an object). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** A `Retry-After` header in milliseconds, when it holds seconds (as Microsoft and Google send it). */
export function retryAfterMs(headers: AnswerHeaders): number | undefined {
  const value = headers["retry-after"];
  const seconds = Number(Array.isArray(value) ? value[0] : value);
  return value !== undefined && Number.isFinite(seconds) && seconds >= 0
    ? Math.round(seconds * 1000)
    : undefined;
}

/**
 * A failure of the request itself (reset, timeout, refused), as `TransportError` named
 * `${label}: ${code}`: ambiguous unless the connection never opened. Core's own errors pass.
 */
export function networkFailure(label: string, error: unknown): TransportError | RateLimitedError {
  if (error instanceof TransportError || error instanceof RateLimitedError) return error;
  const code = (error as { code?: unknown } | undefined)?.code;
  const reason = typeof code === "string" ? code : error instanceof Error ? error.name : "network failure";
  return new TransportError(`${label}: ${reason}`, { ambiguous: !neverLeft(error), cause: error });
}
