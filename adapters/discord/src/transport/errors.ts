/**
 * Discord failures → core's error classes. @discordjs/rest throws `DiscordAPIError` for a
 * 4xx (Discord's JSON `{ code, message, errors }`), `HTTPError` for a 5xx, `RateLimitError`
 * when a rate limit is handed to the caller (`rejectOnRateLimit`), and network errors as is.
 * Matched by name (not `instanceof`) so a discord.js `Client`'s own copy of the library maps too.
 */
import {
  AuthError,
  MediaError,
  neverLeft,
  OutboxError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "@outbox/core";

/** Discord codes refusing a voice message (50159–50161 malformed, 50173 not allowed here). */
const VOICE_REFUSED = new Set([50159, 50160, 50161, 50173]);

interface RestFailure {
  name?: string;
  message?: string;
  code?: unknown;
  status?: number;
  retryAfter?: number;
  global?: boolean;
  rawError?: { errors?: unknown };
}

/** What the failed call was about, for the messages. */
export interface CallContext {
  /** Route called (`POST /channels/{id}/messages`), ids included, never the token. */
  route: string;
  /** The call carried a `message_reference`. */
  reply: boolean;
  /** The channel is a thread (`target.thread`). */
  thread: boolean;
  /** The call names a message to edit or delete (10008 then means that message is gone). */
  message?: boolean;
}

/** Map anything a REST call threw onto core's error classes. */
export function toOutboxError(error: unknown, ctx: CallContext): OutboxError {
  if (error instanceof OutboxError) return error;
  const failure = (typeof error === "object" && error !== null ? error : {}) as RestFailure;
  const name = failure.name ?? "";
  const cause = { cause: error };
  if (name.startsWith("RateLimitError"))
    return new RateLimitedError(
      `Discord ${ctx.route}: rate limited${failure.global ? " (global)" : ""}, retry after ${failure.retryAfter} ms`,
      Math.max(0, Math.round(failure.retryAfter ?? 1000)),
      cause,
    );
  if (name.startsWith("DiscordAPIError")) return fromApiError(failure, ctx, error);
  if (name === "HTTPError") {
    const status = failure.status ?? 500;
    return new PlatformError(`Discord ${ctx.route} failed (${status}): ${failure.message}`, {
      method: ctx.route,
      status,
      description: failure.message ?? "",
      cause: error,
    });
  }
  const ambiguous = !neverLeft(error);
  return new TransportError(`Discord ${ctx.route}: ${failure.message ?? String(error)}`, {
    ambiguous,
    ...cause,
  });
}

function fromApiError(failure: RestFailure, ctx: CallContext, error: unknown): OutboxError {
  const code = typeof failure.code === "number" ? failure.code : 0;
  const status = failure.status ?? 400;
  const description = failure.message ?? "";
  const message = `Discord ${ctx.route} failed (${status}, code ${code}): ${description}`;
  const cause = { cause: error };
  if (status === 401) return new AuthError(`${message}; check the bot token`, cause);
  if (code === 50001)
    return new AuthError(
      `${message}; the bot cannot see this channel: add it to the server and grant View Channel`,
      cause,
    );
  if (code === 50013)
    return new AuthError(
      `${message}; grant the bot Send Messages (Send Messages in Threads, Attach Files, Read Message History as used)`,
      cause,
    );
  if (code === 10003 || code === 10013)
    return new TargetNotFoundError(message, ctx.thread ? "thread" : "chat", cause);
  if (ctx.message && code === 10008) return new TargetNotFoundError(message, "message", cause);
  if (code === 50005)
    return new PlatformError(`${message}; only the bot's own messages can be edited`, {
      method: ctx.route,
      status,
      description,
      cause: error,
    });
  if (ctx.reply && (code === 10008 || (code === 50035 && /message_reference/i.test(description))))
    return new TargetNotFoundError(message, "reply", cause);
  if (VOICE_REFUSED.has(code)) return new UnsupportedFeatureError("voice", message, cause);
  if (code === 40005 || code === 50045 || status === 413)
    return new MediaError(
      "too-large",
      `${message}; raise or lower maxUploadBytes to the server's limit`,
      cause,
    );
  return new PlatformError(message, { method: ctx.route, status, description, cause: error });
}
