/**
 * One media item: sendPhoto / sendAnimation / sendVideo / sendAudio / sendVoice /
 * sendDocument, by the URL the plan chose when Telegram can fetch it, else streamed from the
 * source.
 */
import type { Capabilities, MediaOperation, SentMessage } from "@outbox/core";
import type { Api, InputFile } from "grammy";
import type { Message } from "grammy/types";
import { type CaptionParams, captionParams, sendWithRepairs } from "./fallbacks.js";
import { mediaInput, uploadedInstead, urlForTelegram } from "./media-input.js";
import { chatId, type PlacementParams, placementParams, replyDropped, signalOf } from "./placement.js";

const METHODS = {
  image: "sendPhoto",
  animation: "sendAnimation",
  video: "sendVideo",
  audio: "sendAudio",
  voice: "sendVoice",
  document: "sendDocument",
} as const;

/** Send a media operation. */
export async function sendMedia(
  api: Api,
  op: MediaOperation,
  capabilities: Capabilities,
): Promise<SentMessage> {
  const method = METHODS[op.kind];
  const url = urlForTelegram(op.url, op.media, op.kind, capabilities);
  let fetched = false;
  const { result, degraded } = await sendWithRepairs(
    method,
    { byUrl: url !== undefined, markup: op.caption !== undefined },
    (mode) => {
      const other = { ...placementParams(op), ...captionParams(op.caption, mode) };
      fetched = !mode.upload;
      return call(api, op, mediaInput(op.media, mode.upload ? undefined : url), other);
    },
  );
  const note = degraded ?? replyDropped(op, result);
  const uploaded = uploadedInstead([op], () => fetched);
  return {
    id: String(result.message_id),
    ...(note ? { degraded: note } : {}),
    ...(uploaded.length > 0 ? { uploadedInstead: uploaded } : {}),
  };
}

type Other = PlacementParams & CaptionParams;

function call(api: Api, op: MediaOperation, input: string | InputFile, other: Other): Promise<Message> {
  const chat = chatId(op);
  const { media } = op;
  const signal = signalOf(op);
  switch (op.kind) {
    case "image":
      return api.sendPhoto(chat, input, other, signal);
    case "animation":
      return api.sendAnimation(chat, input, other, signal);
    case "video":
      return api.sendVideo(chat, input, other, signal);
    case "audio":
      return api.sendAudio(chat, input, other, signal);
    case "voice": {
      const duration =
        media.durationMs === undefined ? {} : { duration: Math.max(1, Math.round(media.durationMs / 1000)) };
      return api.sendVoice(chat, input, { ...other, ...duration }, signal);
    }
    case "document":
      return api.sendDocument(chat, input, other, signal);
  }
}
