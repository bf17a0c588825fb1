/**
 * An album: `sendMediaGroup` with 2–10 items, the caption on the first item.
 */
import type { AlbumOperation, Capabilities, MediaKind, SentMessage } from "@outbox/core";
import { type Api, InputMediaBuilder } from "grammy";
import type { InputMediaAudio, InputMediaDocument, InputMediaPhoto, InputMediaVideo } from "grammy/types";
import { type CaptionParams, captionParams, sendWithRepairs } from "./fallbacks.js";
import { canSendByUrl, mediaInput } from "./media-input.js";
import { chatId, placementParams, replyDropped, signalOf } from "./placement.js";

type GroupItem = InputMediaPhoto | InputMediaVideo | InputMediaDocument | InputMediaAudio;
type MediaGroup = Parameters<Api["sendMediaGroup"]>[1];

/** Send an album operation. */
export async function sendAlbum(
  api: Api,
  op: AlbumOperation,
  capabilities: Capabilities,
): Promise<SentMessage> {
  const byUrl = op.items.some((item) => canSendByUrl(item.media, item.kind, capabilities));
  const { result, degraded } = await sendWithRepairs(
    "sendMediaGroup",
    { byUrl, markup: op.caption !== undefined },
    (mode) => {
      const items = op.items.map((item, index): GroupItem => {
        const upload = mode.upload || !canSendByUrl(item.media, item.kind, capabilities);
        const input = mediaInput(item.media, upload);
        return build(item.kind, input, index === 0 ? captionParams(op.caption, mode) : {});
      });
      return api.sendMediaGroup(chatId(op), items as MediaGroup, placementParams(op), signalOf(op));
    },
  );
  const first = result[0];
  if (!first) throw new Error("Telegram sendMediaGroup returned no messages");
  const note = degraded ?? replyDropped(op, first);
  return {
    id: String(first.message_id),
    memberIds: result.map((m) => String(m.message_id)),
    ...(note ? { degraded: note } : {}),
  };
}

function build(kind: MediaKind, input: ReturnType<typeof mediaInput>, caption: CaptionParams): GroupItem {
  switch (kind) {
    case "image":
      return InputMediaBuilder.photo(input, caption);
    case "video":
      return InputMediaBuilder.video(input, caption);
    case "audio":
      return InputMediaBuilder.audio(input, caption);
    default:
      return InputMediaBuilder.document(input, caption);
  }
}
