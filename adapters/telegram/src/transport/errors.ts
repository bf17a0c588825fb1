/**
 * Telegram failures → core's error classes. grammY throws `GrammyError` for every
 * `ok: false` answer (it never looks at the HTTP status) and `HttpError` when the request
 * or the JSON failed; the second is ambiguous unless the request was never written (the
 * connection never opened: core's `neverLeft`).
 */
import {
  AuthError,
  neverLeft,
  OutboxError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "@outbox/core";
import { GrammyError, HttpError } from "grammy";

/** A test for Telegram's 400 "Bad Request" whose description matches `pattern`. */
function badRequest(pattern: RegExp): (error: unknown) => error is GrammyError {
  return (error): error is GrammyError =>
    error instanceof GrammyError && error.error_code === 400 && pattern.test(error.description);
}

/** Whether a grammY error is Telegram refusing the markup. */
export const isEntityError = badRequest(/can't parse entities/i);

/** Whether a grammY error is Telegram failing to fetch a URL it was given. */
export const isUrlFetchError = badRequest(
  /failed to get HTTP URL content|wrong file identifier\/HTTP URL specified|wrong type of the web page content/i,
);

/** Whether a grammY error is Telegram refusing an edit that changes nothing (the message already shows that text). */
export const isNotModified = badRequest(/message is not modified/i);

/** Map anything a grammY call threw onto core's error classes. */
export function toOutboxError(error: unknown, method: string): OutboxError {
  if (error instanceof OutboxError) return error;
  if (error instanceof GrammyError) return fromGrammyError(error, method);
  if (error instanceof HttpError) {
    if (error.error instanceof OutboxError) return error.error;
    const ambiguous = !neverLeft(error.error);
    return new TransportError(`Telegram ${method}: ${describe(error.error)}`, { ambiguous, cause: error });
  }
  return new TransportError(`Telegram ${method}: ${describe(error)}`, { ambiguous: true, cause: error });
}

function fromGrammyError(error: GrammyError, method: string): OutboxError {
  const { error_code: status, description } = error;
  const message = `Telegram ${method} failed (${status}): ${description}`;
  const cause = { cause: error };
  if (status === 429)
    return new RateLimitedError(message, Math.round((error.parameters.retry_after ?? 1) * 1000), cause);
  if (status === 401) return new AuthError(message, cause);
  if (/chat not found/i.test(description)) return new TargetNotFoundError(message, "chat", cause);
  if (/message thread not found/i.test(description)) return new TargetNotFoundError(message, "thread", cause);
  if (/message to be replied not found/i.test(description))
    return new TargetNotFoundError(message, "reply", cause);
  if (/message to (edit|delete) not found/i.test(description))
    return new TargetNotFoundError(message, "message", cause);
  if (/VOICE_MESSAGES_FORBIDDEN/.test(description))
    return new UnsupportedFeatureError("voice", message, cause);
  return new PlatformError(message, { method, status, description, cause: error });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
