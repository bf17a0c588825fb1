/**
 * One Create Message call (`POST /channels/{id}/messages`): JSON without files, a streamed
 * multipart body with them; mentions limited by `allowed_mentions`; the operation's key sent
 * as `nonce` with `enforce_nonce: true`, so Discord returns the message an earlier attempt
 * created instead of a second one (a resend after an ambiguous failure is safe); a reply that
 * Discord dropped because its target vanished reported as a degradation.
 */
import type { OperationBase, SentMessage } from "@outbox/core";
import type { DiscordAllowedMentions, DiscordRestLike } from "../types.js";
import { toOutboxError } from "./errors.js";
import { type FilePart, multipartBody } from "./multipart.js";
import { type ChannelResolver, messageReference } from "./placement.js";
import type { RateLimitHeaders } from "./rate-limit-headers.js";
import { withRequestSignal } from "./request-signal.js";

/** One attachment entry of `payload_json`. */
export interface AttachmentEntry {
  /** The `n` of the `files[n]` part. */
  id: number;
  /** File name shown in Discord. */
  filename: string;
  /** Voice message length in seconds. */
  duration_secs?: number;
  /** Voice message waveform, base64. */
  waveform?: string;
}

/** The message to create, without placement. */
export interface MessageBody {
  /** Discord Markdown, at most 2000 characters. */
  content?: string;
  /** Message flags (8192: voice message). */
  flags?: number;
  /** One entry per file part. */
  attachments?: AttachmentEntry[];
}

/** What posting needs. */
export interface PostContext {
  /** The REST client. */
  rest: DiscordRestLike;
  /** Target → channel (threads, DMs). */
  channels: ChannelResolver;
  /** Sent with every message. */
  allowedMentions: DiscordAllowedMentions;
  /** Bucket state of each call. */
  rateLimits: RateLimitHeaders;
}

/** Create one message for an operation. */
export async function postMessage(
  ctx: PostContext,
  op: OperationBase,
  message: MessageBody,
  files: FilePart[] = [],
): Promise<SentMessage> {
  const reference = messageReference(op);
  const channel = await ctx.channels.channelOf(op);
  const route = `/channels/${channel}/messages` as const;
  const body = {
    ...message,
    allowed_mentions: ctx.allowedMentions,
    ...(reference ? { message_reference: reference } : {}),
    ...(op.key === undefined ? {} : { nonce: op.key, enforce_nonce: true }),
  };
  const multipart = files.length === 0 ? undefined : multipartBody(body, files);
  const sent: object = multipart?.body ?? body;
  let created: { id: string; message_reference?: unknown };
  try {
    created = (await withRequestSignal(op.signal, (signal) =>
      ctx.rest.post(
        route,
        multipart
          ? {
              body: sent,
              passThroughBody: true,
              headers: { "Content-Type": multipart.contentType },
              ...signal,
            }
          : { body, ...signal },
      ),
    )) as typeof created;
  } catch (error) {
    throw toOutboxError(error, {
      route: `POST ${route}`,
      reply: reference !== undefined,
      thread: op.thread !== undefined,
    });
  }
  const dropped = reference !== undefined && created.message_reference === undefined;
  const rateLimit = ctx.rateLimits.take(sent);
  return {
    id: String(created.id),
    ...(rateLimit ? { rateLimit } : {}),
    ...(dropped
      ? {
          degraded: {
            from: "reply",
            to: "none",
            reason: `message ${op.replyTo} no longer exists; Discord sent without the reply (fail_if_not_exists: false)`,
          },
        }
      : {}),
  };
}
