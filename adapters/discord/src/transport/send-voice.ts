/**
 * A voice message: flags 8192 (IS_VOICE_MESSAGE), one `audio/ogg` attachment with
 * `duration_secs` and a waveform computed from the decoded audio, and no content. Audio
 * that cannot be decoded is refused as a voice note (`UnsupportedFeatureError("voice")`),
 * so the engine sends it as an audio file with a degraded entry.
 */
import { type MediaOperation, type SentMessage, UnsupportedFeatureError } from "@outbox/core";
import { voiceMetadata } from "../voice/waveform.js";
import { type PostContext, postMessage } from "./post-message.js";

/** Discord's IS_VOICE_MESSAGE message flag. */
export const IS_VOICE_MESSAGE = 1 << 13;

/** Send a voice note as a Discord voice message. */
export async function sendVoice(ctx: PostContext, op: MediaOperation): Promise<SentMessage> {
  if (op.caption !== undefined)
    // Not planned with Discord's capabilities (`voice.caption: false`); refused so the engine
    // sends an audio file with the text instead of losing the text.
    throw new UnsupportedFeatureError("voice", "Discord voice messages carry no text");
  let metadata: Awaited<ReturnType<typeof voiceMetadata>>;
  try {
    metadata = await voiceMetadata(op.media.open());
  } catch (error) {
    throw new UnsupportedFeatureError(
      "voice",
      `${op.media.fileName} could not be decoded as OGG/Opus for the voice message's waveform (${(error as Error).message})`,
      { cause: error },
    );
  }
  return postMessage(
    ctx,
    op,
    {
      flags: IS_VOICE_MESSAGE,
      attachments: [
        {
          id: 0,
          filename: op.media.fileName,
          duration_secs: Math.round(metadata.durationSecs * 1000) / 1000,
          waveform: metadata.waveform,
        },
      ],
    },
    [{ name: op.media.fileName, contentType: "audio/ogg", open: () => op.media.open() }],
  );
}
