/**
 * Where an operation lands: chat, forum topic and reply, as Bot API parameters.
 */
import { type OperationBase, TargetNotFoundError } from "@outbox/core";
import type { Api } from "grammy";
import type { Message } from "grammy/types";

/** Parameters every send carries. */
export interface PlacementParams {
  /** Topic id; the General topic (1) is omitted because Telegram refuses it. */
  message_thread_id?: number;
  /** The reply, sent even if the target vanished meanwhile. */
  reply_parameters?: { message_id: number; allow_sending_without_reply: true };
}

/** The placement parameters of an operation. */
export function placementParams(op: OperationBase): PlacementParams {
  const params: PlacementParams = {};
  if (op.thread !== undefined && op.thread !== "1") {
    if (!/^\d+$/.test(op.thread))
      throw new TargetNotFoundError(`Telegram topic id "${op.thread}" is not a number`, "thread");
    params.message_thread_id = Number(op.thread);
  }
  if (op.replyTo !== undefined) {
    if (!/^\d+$/.test(op.replyTo))
      throw new TargetNotFoundError(`Telegram message id "${op.replyTo}" is not a number`, "reply");
    params.reply_parameters = { message_id: Number(op.replyTo), allow_sending_without_reply: true };
  }
  return params;
}

/** The chat id as the Bot API takes it: an integer, or an `@username`. */
export function chatId(op: OperationBase): number | string {
  return /^-?\d+$/.test(op.target.to) ? Number(op.target.to) : op.target.to;
}

/** The degradation to report when Telegram dropped a reply whose target no longer exists. */
export function replyDropped(
  op: OperationBase,
  message: Message,
): { from: string; to: string; reason: string } | undefined {
  if (op.replyTo === undefined || message.reply_to_message !== undefined) return undefined;
  return {
    from: "reply",
    to: "none",
    reason: `message ${op.replyTo} no longer exists; Telegram sent without the reply (allow_sending_without_reply)`,
  };
}

/** grammY types its signal parameter with the `abort-controller` polyfill's class. */
type GrammySignal = Parameters<Api["sendMessage"]>[3];

/** The operation's signal, typed as grammY wants it (it accepts any object with `addEventListener`). */
export function signalOf(op: OperationBase): GrammySignal {
  return op.signal as unknown as GrammySignal;
}
