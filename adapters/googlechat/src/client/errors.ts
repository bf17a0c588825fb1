/**
 * Chat API and token-endpoint failures → core's error classes. The Chat API answers an error
 * as `{ error: { code, message, status } }` (google.rpc.Status, "Errors" in Google's API
 * design guide); the token endpoint as `{ error, error_description }` (OAuth 2.0). Every
 * message names the status and what to do; a body that is neither (a proxy's page) is quoted
 * in part with the secrets removed first. The key and the tokens are never in a message.
 */
import {
  AuthError,
  type HeaderValues,
  jsonObject,
  type OutboxError,
  PlatformError,
  RateLimitedError,
  redactedExcerpt,
  retryAfterMs,
  TargetNotFoundError,
  TransportError,
} from "@outbox/core";

/** A call the transport makes, named as the emulator's fault targets name it. */
export type ChatMethod =
  | "token"
  | "spaces.messages.create"
  | "spaces.messages.patch"
  | "spaces.messages.delete";

/** What the failed call was about, for the error's wording and class. */
export interface FailedCall {
  /** The call. */
  method: ChatMethod;
  /** The message went to a thread. */
  thread?: boolean;
}

/**
 * Wait before the first retry of a 429 that names none: Google asks for exponential backoff
 * from about a second ("Usage limits"); core's retry doubles from there.
 */
export const RESOURCE_EXHAUSTED_WAIT_MS = 1000;

/** What to do about each status the adapter meets. */
const HINTS: Record<string, string> = {
  PERMISSION_DENIED:
    "the Chat app is not a member of this space, or the Chat API is not configured for it: add the app to the space (docs/adapters/googlechat.md)",
  UNAUTHENTICATED: "the token was refused: check the service account key and the chat.bot scope",
  NOT_FOUND: "no such space, thread or message for this app",
  RESOURCE_EXHAUSTED: "over the space's write quota (60 a minute)",
  INVALID_ARGUMENT: "the message was refused as written",
};

/** Map a non-2xx answer of the Chat API onto core's errors. */
export function fromChatApi(
  call: FailedCall,
  status: number,
  headers: HeaderValues,
  text: string,
  secrets: readonly string[],
): OutboxError {
  const error = (jsonObject(text)?.error ?? {}) as { status?: unknown; message?: unknown };
  const code = typeof error.status === "string" ? error.status : undefined;
  const said =
    typeof error.message === "string" && error.message !== ""
      ? redactedExcerpt(error.message, secrets)
      : redactedExcerpt(text, secrets) || `HTTP ${status}`;
  const hint = code === undefined ? undefined : HINTS[code];
  const message = `Google Chat ${call.method}: HTTP ${status}${code ? ` ${code}` : ""} (${said})${hint ? `; ${hint}` : ""}`;
  if (status === 429)
    return new RateLimitedError(message, retryAfterMs(headers) ?? RESOURCE_EXHAUSTED_WAIT_MS, {
      scope: "target",
    });
  if (status === 401) return new AuthError(message);
  if (status === 403) return new AuthError(message);
  if (status === 404) {
    if (call.method !== "spaces.messages.create") return new TargetNotFoundError(message, "message");
    return new TargetNotFoundError(message, call.thread ? "thread" : "chat");
  }
  return new PlatformError(message, {
    method: call.method,
    status,
    description: code ? `${code}: ${said}` : said,
  });
}

/** Map a non-2xx answer of the token endpoint: Google refused the service account's assertion. */
export function fromTokenEndpoint(status: number, text: string, secrets: readonly string[]): OutboxError {
  const body = jsonObject(text);
  const code = typeof body?.error === "string" ? body.error : undefined;
  const description = typeof body?.error_description === "string" ? body.error_description : undefined;
  const said = redactedExcerpt(description ?? text, secrets) || `HTTP ${status}`;
  const message = `Google Chat token: HTTP ${status}${code ? ` ${code}` : ""} (${said}); check the service account key (a deleted or rotated key is refused) and the clock`;
  if (status === 429) return new RateLimitedError(message, RESOURCE_EXHAUSTED_WAIT_MS, { scope: "global" });
  if (status >= 500) return new TransportError(message, { ambiguous: false });
  return new AuthError(message);
}
