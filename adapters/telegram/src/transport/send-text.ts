/**
 * One text message: `sendMessage` with `parse_mode: "HTML"`, repaired once as plain text
 * when Telegram refuses the markup (the whole chunk is resent, so nothing is lost).
 */
import type { SentMessage, TextOperation } from "@outbox/core";
import type { Api } from "grammy";
import { sendWithRepairs } from "./fallbacks.js";
import { chatId, placementParams, replyDropped, signalOf } from "./placement.js";

/** Send a text operation. */
export async function sendText(api: Api, op: TextOperation, linkPreview: boolean): Promise<SentMessage> {
  const method = "sendMessage";
  const { result, degraded } = await sendWithRepairs(method, { byUrl: false, markup: true }, (mode) =>
    api.sendMessage(
      chatId(op),
      mode.plain ? op.text.plain : op.text.text,
      {
        ...placementParams(op),
        ...(mode.plain ? {} : { parse_mode: "HTML" as const }),
        ...(linkPreview ? {} : { link_preview_options: { is_disabled: true } }),
      },
      signalOf(op),
    ),
  );
  const note = degraded ?? replyDropped(op, result);
  return { id: String(result.message_id), ...(note ? { degraded: note } : {}) };
}
