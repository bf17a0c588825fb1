/**
 * Matrix failures → core's error classes, with a message that says what to do. The
 * client throws {@link MatrixHttpError} for an error answer (the spec's `errcode`) and
 * undici's own errors for the network.
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
} from "@outbox/core";
import { MatrixHttpError } from "../client/matrix-client.js";

/** What the failed call was about, for the messages. */
export interface CallContext {
  /** The call (`PUT /rooms/{roomId}/send/m.room.message`), room id included, never the token. */
  route: string;
  /** The room. */
  room: string;
  /** The call names an event to edit or redact (`M_NOT_FOUND` then means that event). */
  message?: boolean;
  /** The call is a media upload (`M_TOO_LARGE` then means the file). */
  upload?: boolean;
}

/** Map anything a client call threw onto core's error classes. */
export function toOutboxError(error: unknown, ctx: CallContext): OutboxError {
  if (error instanceof OutboxError) return error;
  const cause = { cause: error };
  if (!(error instanceof MatrixHttpError)) {
    const failure = (typeof error === "object" && error !== null ? error : {}) as { message?: string };
    return new TransportError(`Matrix ${ctx.route}: ${failure.message ?? String(error)}`, {
      ambiguous: !neverLeft(error),
      ...cause,
    });
  }
  const message = `Matrix ${ctx.route} failed (${error.status} ${error.errcode}): ${error.description}`;
  switch (error.errcode) {
    case "M_LIMIT_EXCEEDED":
      return new RateLimitedError(
        `${message}; the homeserver's rate limit for the bot's user (ask its admin to exempt the bot, then raise rateLimit)`,
        Math.max(0, Math.round(error.retryAfterMs ?? 1000)),
        cause,
      );
    case "M_UNKNOWN_TOKEN":
    case "M_MISSING_TOKEN":
      return new AuthError(
        `${message}; the access token is invalid or was logged out: log the bot in again`,
        cause,
      );
    case "M_FORBIDDEN":
      return new AuthError(
        `${message}; invite the bot's user to room ${ctx.room} and let it join (or raise its power level to send here)`,
        cause,
      );
    case "M_NOT_FOUND":
      return ctx.message
        ? new TargetNotFoundError(message, "message", cause)
        : new TargetNotFoundError(`${message}; check the room id ${ctx.room}`, "chat", cause);
    case "M_TOO_LARGE":
      if (ctx.upload)
        return new MediaError(
          "too-large",
          `${message}; lower maxUploadBytes to the homeserver's m.upload.size`,
          cause,
        );
  }
  if (error.status === 401) return new AuthError(`${message}; check the access token`, cause);
  if (error.status === 403)
    return new AuthError(`${message}; check the bot's membership of ${ctx.room}`, cause);
  return new PlatformError(message, {
    method: ctx.route,
    status: error.status,
    description: error.description,
    cause: error,
  });
}
