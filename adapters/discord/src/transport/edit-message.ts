/**
 * Live-preview operations: Edit Message (`PATCH /channels/{id}/messages/{id}`, new content
 * with the same `allowed_mentions` as a send) and Delete Message. Discord accepts an edit
 * that changes nothing, so there is no "not modified" refusal to absorb.
 */
import {
  type DeleteOperation,
  type EditOperation,
  type SentMessage,
  TargetNotFoundError,
} from "@outbox/core";
import { toOutboxError } from "./errors.js";
import type { PostContext } from "./post-message.js";
import { withRequestSignal } from "./request-signal.js";

/** Replace the content of a message the bot sent. */
export async function editMessage(ctx: PostContext, op: EditOperation): Promise<SentMessage> {
  const route = await messageRoute(ctx, op);
  const body = { content: op.text.text, allowed_mentions: ctx.allowedMentions };
  try {
    await withRequestSignal(op.signal, (signal) => ctx.rest.patch(route, { body, ...signal }));
  } catch (error) {
    throw messageError(error, `PATCH ${route}`, op);
  }
  const rateLimit = ctx.rateLimits.take(body);
  return { id: op.messageId, ...(rateLimit ? { rateLimit } : {}) };
}

/** Delete a message the bot sent. */
export async function deleteMessage(ctx: PostContext, op: DeleteOperation): Promise<void> {
  const route = await messageRoute(ctx, op);
  try {
    await withRequestSignal(op.signal, (signal) => ctx.rest.delete(route, signal));
  } catch (error) {
    throw messageError(error, `DELETE ${route}`, op);
  }
}

/** An edit's or delete's failure as core's error: a 10008 means the message, not the channel. */
function messageError(error: unknown, route: string, op: EditOperation | DeleteOperation) {
  return toOutboxError(error, { route, reply: false, thread: op.thread !== undefined, message: true });
}

async function messageRoute(ctx: PostContext, op: EditOperation | DeleteOperation): Promise<`/${string}`> {
  if (!/^\d{15,21}$/.test(op.messageId))
    throw new TargetNotFoundError(`Discord message id "${op.messageId}" is not a snowflake id`, "message");
  const channel = await ctx.channels.channelOf(op);
  return `/channels/${channel}/messages/${op.messageId}`;
}
