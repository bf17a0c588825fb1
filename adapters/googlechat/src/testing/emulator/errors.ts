/**
 * A Chat API refusal, answered as Google's APIs answer one (google.rpc.Status in JSON):
 * `{ error: { code, message, status } }` with the HTTP status.
 */
import type { AnsweredFault, EmulatorAnswer } from "@outbox/core/testing";

/** Thrown by handlers; the server turns it into Google's error answer. */
export class ChatApiError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The canonical status name (`INVALID_ARGUMENT`, `NOT_FOUND`, …). */
    readonly code: string,
    message: string,
    /** Extra headers. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 `INVALID_ARGUMENT` naming what is wrong. */
export function invalidArgument(message: string): ChatApiError {
  return new ChatApiError(400, "INVALID_ARGUMENT", message);
}

/** 404 `NOT_FOUND`. */
export function notFound(message: string): ChatApiError {
  return new ChatApiError(404, "NOT_FOUND", message);
}

/** The API's error for an injected 429, 5xx or 400. */
export function faultError(fault: AnsweredFault): ChatApiError {
  if (fault.kind === "server-error")
    return new ChatApiError(fault.status, "UNAVAILABLE", "Injected fault: the service is unavailable.");
  if (fault.kind === "reject") return invalidArgument(fault.description);
  return new ChatApiError(429, "RESOURCE_EXHAUSTED", "Injected fault: quota exceeded.", {
    "retry-after": String(fault.retryAfterMs / 1000),
  });
}

/** Google's error envelope. */
export function answerError(error: unknown): EmulatorAnswer {
  const known = error instanceof ChatApiError ? error : new ChatApiError(500, "INTERNAL", String(error));
  return {
    status: known.status,
    body: { error: { code: known.status, message: known.message, status: known.code } },
    headers: known.headers,
  };
}
