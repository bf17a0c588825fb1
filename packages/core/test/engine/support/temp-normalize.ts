// TEMPORARY stand-in for parse/normalizePayload until it lands; removed then.
import type { ParseOptions, ReplyPayload, ReplyPayloadInput } from "../../../src/payload/types.js";
export function normalizePayload(input: ReplyPayloadInput, options: ParseOptions = {}): ReplyPayload {
  let text = input.text ?? "";
  const voice = /\[\[audio_as_voice\]\]/.test(text);
  const current = /\[\[reply_to_current\]\]/.test(text);
  text = text.replace(/\s*\[\[(audio_as_voice|reply_to_current)\]\]\s*/g, "").trim();
  const replyToCurrent = current || input.replyToCurrent === true;
  return {
    text,
    mediaUrls: [...(input.mediaUrl ? [input.mediaUrl] : []), ...(input.mediaUrls ?? [])],
    media: input.media ?? [],
    audioAsVoice: voice || input.audioAsVoice === true,
    replyToId:
      input.replyToId === undefined
        ? replyToCurrent
          ? options.currentMessageId
          : undefined
        : input.replyToId,
    replyToCurrent,
    embeds: [],
  };
}
