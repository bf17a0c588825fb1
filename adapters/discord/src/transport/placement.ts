/**
 * Where an operation lands: the channel (a thread is a channel of its own; a user gets a
 * DM channel, opened once and remembered) and the reply reference.
 */
import { type OperationBase, TargetNotFoundError } from "@outbox/core";
import type { DiscordRestLike } from "../types.js";
import { type CallContext, toOutboxError } from "./errors.js";

/** A Discord snowflake id. */
const SNOWFLAKE = /^\d{15,21}$/;
/** `user:<id>` (or `@<id>`): a user, written to in a DM channel. */
const USER = /^(?:user:|@)(\d{15,21})$/;

/** Discord's reply reference: sent even if the message replied to vanished meanwhile. */
export interface MessageReference {
  /** The message replied to. */
  message_id: string;
  /** Send without the reply when the message no longer exists. */
  fail_if_not_exists: false;
}

/** Resolves a target to the channel a message is posted in. */
export class ChannelResolver {
  private readonly dms = new Map<string, Promise<string>>();

  constructor(private readonly rest: DiscordRestLike) {}

  /** The channel id of an operation; opens (once) a DM channel for a `user:<id>` target. */
  async channelOf(op: OperationBase): Promise<string> {
    if (op.thread !== undefined) {
      if (!SNOWFLAKE.test(op.thread))
        throw new TargetNotFoundError(`Discord thread id "${op.thread}" is not a snowflake id`, "thread");
      return op.thread;
    }
    const { to } = op.target;
    const user = USER.exec(to)?.[1];
    if (user !== undefined) return this.dmChannel(user, op.signal);
    if (!SNOWFLAKE.test(to))
      throw new TargetNotFoundError(
        `Discord channel id "${to}" is not a snowflake id (use the channel's id, or user:<id> for a DM)`,
        "chat",
      );
    return to;
  }

  private dmChannel(user: string, signal: AbortSignal | undefined): Promise<string> {
    let channel = this.dms.get(user);
    if (channel === undefined) {
      const ctx: CallContext = { route: "POST /users/@me/channels", reply: false, thread: false };
      channel = this.rest
        .post("/users/@me/channels", { body: { recipient_id: user }, ...(signal ? { signal } : {}) })
        .then((dm) => String((dm as { id: string }).id))
        .catch((error: unknown) => {
          this.dms.delete(user);
          throw toOutboxError(error, ctx);
        });
      this.dms.set(user, channel);
    }
    return channel;
  }
}

/** The reply reference of an operation, checked before any call. */
export function messageReference(op: OperationBase): MessageReference | undefined {
  if (op.replyTo === undefined) return undefined;
  if (!SNOWFLAKE.test(op.replyTo))
    throw new TargetNotFoundError(`Discord message id "${op.replyTo}" is not a snowflake id`, "reply");
  return { message_id: op.replyTo, fail_if_not_exists: false };
}
