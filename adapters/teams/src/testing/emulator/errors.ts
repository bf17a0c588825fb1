/**
 * A connector refusal, answered as the Bot Framework connector does:
 * `{ error: { code, message } }` with the HTTP status, and `Retry-After` on a 429.
 */
import type { AnsweredFault, EmulatorAnswer } from "@outbox/core/testing";

/** Thrown by handlers; the server turns it into the connector's error answer. */
export class ConnectorError extends Error {
  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The connector's error code (`BadArgument`, `ConversationNotFound`, …). */
    readonly code: string,
    message: string,
    /** Extra headers. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** 400 `BadArgument` naming what is wrong. */
export function badArgument(message: string): ConnectorError {
  return new ConnectorError(400, "BadArgument", message);
}

/** The connector's error for an injected 429, 5xx or 400. */
export function faultError(fault: AnsweredFault): ConnectorError {
  if (fault.kind === "server-error")
    return new ConnectorError(fault.status, "ServiceError", "Injected fault: the service failed.");
  if (fault.kind === "reject") return badArgument(fault.description);
  return new ConnectorError(429, "TooManyRequests", "Injected fault: too many requests.", {
    "retry-after": String(fault.retryAfterMs / 1000),
  });
}

/** The connector's error envelope. */
export function answerError(error: unknown): EmulatorAnswer {
  const known =
    error instanceof ConnectorError ? error : new ConnectorError(500, "ServiceError", String(error));
  return {
    status: known.status,
    body: { error: { code: known.code, message: known.message } },
    headers: known.headers,
  };
}
