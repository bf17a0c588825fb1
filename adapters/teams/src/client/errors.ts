/**
 * Connector and token-endpoint failures → core's error classes. The connector answers an
 * error as `{ error: { code, message } }` (Bot Framework REST API, "Error"); the identity
 * platform as `{ error, error_description }` with its `AADSTS…` code. Every message names the
 * code and what to do; a body that is neither (a proxy's page) is quoted in part with the
 * secrets removed first. The token and the client secret are never in a message.
 */
import {
  AuthError,
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
export type ConnectorMethod = "token" | "sendToConversation" | "updateActivity" | "deleteActivity";

/** What the failed call was about, for the error's wording and class. */
export interface FailedCall {
  /** The call. */
  method: ConnectorMethod;
  /** The activity went to a channel thread. */
  thread?: boolean;
}

/** What to do about each connector code the adapter meets. */
const HINTS: Record<string, string> = {
  BotNotInConversationRoster:
    "the bot is not a member of this conversation: install the app in the team or chat, or let the person message the bot first",
  ConversationBlockedByUser: "the person blocked the bot",
  MessageSizeTooBig: "the activity is over Teams' size limit",
  Unauthorized: "the token was refused: check the app id, secret and tenant (docs/adapters/teams.md)",
};

/** Map a non-2xx answer of the connector onto core's errors. */
export function fromConnector(
  call: FailedCall,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  secrets: readonly string[],
): OutboxError {
  const body = jsonObject(text);
  const error = (body?.error ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof error.code === "string" ? error.code : undefined;
  const said =
    typeof error.message === "string" && error.message !== ""
      ? redactedExcerpt(error.message, secrets)
      : redactedExcerpt(text, secrets) || `HTTP ${status}`;
  const hint = code === undefined ? undefined : HINTS[code];
  const message = `Teams ${call.method}: HTTP ${status}${code ? ` ${code}` : ""} (${said})${hint ? `; ${hint}` : ""}`;
  if (status === 429)
    return new RateLimitedError(message, retryAfterMs(headers) ?? 1000, { scope: "target" });
  if (status === 401) return new AuthError(message);
  if (status === 403 && code === "BotNotInConversationRoster")
    return new TargetNotFoundError(message, "chat");
  if (status === 403) return new AuthError(message);
  if (status === 404) {
    if (call.method === "updateActivity" || call.method === "deleteActivity")
      return new TargetNotFoundError(message, "message");
    return new TargetNotFoundError(message, call.thread ? "thread" : "chat");
  }
  // Microsoft asks bots to retry 412 like a 5xx: the write may or may not have happened.
  if (status === 412) return new TransportError(message, { ambiguous: true });
  return new PlatformError(message, {
    method: call.method,
    status,
    description: code ? `${code}: ${said}` : said,
  });
}

/** Map a non-2xx answer of the token endpoint: the identity platform refused the bot's credentials. */
export function fromTokenEndpoint(status: number, text: string, secrets: readonly string[]): OutboxError {
  const body = jsonObject(text);
  const code = typeof body?.error === "string" ? body.error : undefined;
  const description =
    typeof body?.error_description === "string" ? body.error_description.split(/\r?\n/)[0] : undefined;
  const said = redactedExcerpt(description ?? text, secrets) || `HTTP ${status}`;
  const message = `Teams token: HTTP ${status}${code ? ` ${code}` : ""} (${said}); check clientId, clientSecret and tenantId (a single-tenant bot needs its tenant id)`;
  if (status === 429) return new RateLimitedError(message, 1000, { scope: "global" });
  if (status >= 500) return new TransportError(message, { ambiguous: false });
  return new AuthError(message);
}
