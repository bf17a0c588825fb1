/**
 * An album: `sendMediaGroup` with 2–10 items, the caption on the first item.
 */
import type { AlbumOperation, Capabilities, MediaKind, SentMessage } from "@outbox/core";
import { type Api, InputMediaBuilder } from "grammy";
import type { InputMediaAudio, InputMediaDocument, InputMediaPhoto, InputMediaVideo } from "grammy/types";
import { type CaptionParams, captionParams, sendWithRepairs } from "./fallbacks.js";
import { mediaInput, uploadedInstead, urlForTelegram } from "./media-input.js";
import { chatId, placementParams, replyDropped, signalOf } from "./placement.js";

type GroupItem = InputMediaPhoto | InputMediaVideo | InputMediaDocument | InputMediaAudio;
type MediaGroup = Parameters<Api["sendMediaGroup"]>[1];

/** Send an album operation. */
export async function sendAlbum(
  api: Api,
  op: AlbumOperation,
  capabilities: Capabilities,
): Promise<SentMessage> {
  const urls = op.items.map((item) => urlForTelegram(item.url, item.media, item.kind, capabilities));
  let fetched = false;
  const { result, degraded } = await sendWithRepairs(
    "sendMediaGroup",
    { byUrl: urls.some((url) => url !== undefined), markup: op.caption !== undefined },
    (mode) => {
      fetched = !mode.upload;
      const items = op.items.map((item, index): GroupItem => {
        const input = mediaInput(item.media, mode.upload ? undefined : urls[index]);
        return build(item.kind, input, index === 0 ? captionParams(op.caption, mode) : {});
      });
      return api.sendMediaGroup(chatId(op), items as MediaGroup, placementParams(op), signalOf(op));
    },
  );
  const first = result[0];
  if (!first) throw new Error("Telegram sendMediaGroup returned no messages");
  const note = degraded ?? replyDropped(op, first);
  const uploaded = uploadedInstead(op.items, (index) => fetched && urls[index] !== undefined);
  return {
    id: String(first.message_id),
    memberIds: result.map((m) => String(m.message_id)),
    ...(note ? { degraded: note } : {}),
    ...(uploaded.length > 0 ? { uploadedInstead: uploaded } : {}),
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
