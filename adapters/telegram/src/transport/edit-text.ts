/**
 * Live-preview operations: `editMessageText` (HTML, repaired once as plain text when Telegram
 * refuses the markup, like a send) and `deleteMessage`. An edit Telegram answers with
 * "message is not modified" is a success: the message already shows that text.
 */
import {
  type DeleteOperation,
  type EditOperation,
  type SentMessage,
  TargetNotFoundError,
} from "@outbox/core";
import type { Api } from "grammy";
import { isNotModified, toOutboxError } from "./errors.js";
import { sendWithRepairs } from "./fallbacks.js";
import { chatId, signalOf } from "./placement.js";

/** Replace the text of a message the bot sent. */
export async function editText(api: Api, op: EditOperation, linkPreview: boolean): Promise<SentMessage> {
  const method = "editMessageText";
  const messageId = messageIdOf(op);
  const { degraded } = await sendWithRepairs(method, { byUrl: false, markup: true }, (mode) =>
    api
      .editMessageText(
        chatId(op),
        messageId,
        mode.plain ? op.text.plain : op.text.text,
        {
          ...(mode.plain ? {} : { parse_mode: "HTML" as const }),
          ...(linkPreview ? {} : { link_preview_options: { is_disabled: true } }),
        },
        signalOf(op),
      )
      .catch((error: unknown) => {
        if (isNotModified(error)) return true;
        throw error;
      }),
  );
  return { id: op.messageId, ...(degraded ? { degraded } : {}) };
}

/** Delete a message the bot sent. */
export async function deleteMessage(api: Api, op: DeleteOperation): Promise<void> {
  const messageId = messageIdOf(op);
  try {
    await api.deleteMessage(chatId(op), messageId, signalOf(op));
  } catch (error) {
    throw toOutboxError(error, "deleteMessage");
  }
}

function messageIdOf(op: EditOperation | DeleteOperation): number {
  if (!/^\d+$/.test(op.messageId))
    throw new TargetNotFoundError(`Telegram message id "${op.messageId}" is not a number`, "message");
  return Number(op.messageId);
}
