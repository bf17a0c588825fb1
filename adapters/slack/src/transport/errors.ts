/**
 * Slack failures → core's error classes. The Web API answers HTTP 200 `ok:false` with an
 * error string (`WebAPIPlatformError`), 429 with `Retry-After`, and other statuses for
 * server trouble (`WebAPIHTTPError`); `WebAPIRequestError` wraps network failures.
 */
import {
  AuthError,
  neverLeft,
  OutboxError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
  TransportError,
} from "@outbox/core";

const AUTH = new Set([
  "invalid_auth",
  "not_authed",
  "token_revoked",
  "token_expired",
  "account_inactive",
  "missing_scope",
  "not_allowed_token_type",
  "no_permission",
]);

/** What the Web API client throws (the fields read here). */
interface SlackFailure {
  code?: string;
  data?: { error?: string; needed?: string; response_metadata?: { messages?: string[] } };
  retryAfter?: number;
  statusCode?: number;
  statusMessage?: string;
  original?: unknown;
  cause?: unknown;
  message?: string;
}

/** Where the failed call was going: a reply (thread of a message) or a thread. */
export type ThreadRole = "reply" | "thread" | undefined;

/** Map anything a Slack call threw onto core's error classes. */
export function toOutboxError(error: unknown, method: string, role?: ThreadRole): OutboxError {
  if (error instanceof OutboxError) return error;
  const failure = (error ?? {}) as SlackFailure;
  const cause = { cause: error };
  switch (failure.code) {
    case "slack_webapi_platform_error":
      return fromPlatformError(failure, method, role, error);
    case "slack_webapi_rate_limited_error":
      return new RateLimitedError(
        `Slack ${method}: ratelimited (Retry-After ${failure.retryAfter} s)`,
        (failure.retryAfter ?? 1) * 1000,
        cause,
      );
    case "slack_webapi_http_error":
      return new PlatformError(`Slack ${method} failed: HTTP ${failure.statusCode}`, {
        method,
        status: failure.statusCode ?? 0,
        description: failure.statusMessage ?? `HTTP ${failure.statusCode}`,
        cause: error,
      });
    case "slack_webapi_request_error":
      return fromNetwork(failure.original, method);
  }
  if (/rate.?limit/i.test(failure.message ?? ""))
    return new RateLimitedError(`Slack ${method}: rate limited without Retry-After`, 1000, cause);
  return fromNetwork(error, method);
}

/** A network failure: ambiguous unless the request was never written (core's `neverLeft`). */
export function fromNetwork(error: unknown, method: string): OutboxError {
  if (error instanceof OutboxError) return error;
  const code = networkCode(error);
  const ambiguous = !neverLeft(error);
  const reason = code ?? (error instanceof Error ? error.name : "network failure");
  return new TransportError(`Slack ${method}: request failed (${reason})`, { ambiguous, cause: error });
}

function networkCode(error: unknown): string | undefined {
  for (
    let e = error as SlackFailure | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as SlackFailure, depth++
  )
    if (typeof e.code === "string") return e.code;
  return undefined;
}

function fromPlatformError(
  failure: SlackFailure,
  method: string,
  role: ThreadRole,
  error: unknown,
): OutboxError {
  const code = failure.data?.error ?? "unknown_error";
  const hint = HINTS[code] ?? "";
  const needed = code === "missing_scope" && failure.data?.needed ? ` (needs ${failure.data.needed})` : "";
  const message = `Slack ${method}: ${code}${needed}${hint}`;
  const cause = { cause: error };
  if (code === "ratelimited" || code === "rate_limited") return new RateLimitedError(message, 1000, cause);
  if (AUTH.has(code)) return new AuthError(message, cause);
  if (code === "message_not_found") return new TargetNotFoundError(message, "message", cause);
  if (code === "thread_not_found")
    return new TargetNotFoundError(message, role === "reply" ? "reply" : "thread", cause);
  if (
    ["channel_not_found", "not_in_channel", "is_archived", "user_not_found", "user_disabled"].includes(code)
  )
    return new TargetNotFoundError(message, "chat", cause);
  const details = failure.data?.response_metadata?.messages?.join("; ");
  return new PlatformError(message, {
    method,
    status: 400,
    description: details ? `${code}: ${details}` : code,
    cause: error,
  });
}

const HINTS: Record<string, string> = {
  not_in_channel: ": invite the app to the channel (/invite @your-app)",
  channel_not_found: ": use a channel id (C…), and invite the app to private channels",
  is_archived: ": the channel is archived",
  missing_scope: ": add the scope under OAuth & Permissions and reinstall the app",
  invalid_auth: ": the token is not valid",
  token_revoked: ": the token was revoked",
  msg_too_long: ": the message text is too long",
  message_not_found: ": the message to edit or delete no longer exists",
  cant_update_message: ": only the app's own messages can be edited",
  cant_delete_message: ": only the app's own messages can be deleted",
  edit_window_closed: ": the workspace's message edit settings forbid editing this message now",
  file_upload_failed: ": the uploaded bytes were refused",
};
