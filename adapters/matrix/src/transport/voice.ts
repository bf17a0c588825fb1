/**
 * A voice note: `m.audio` with MSC3245's `org.matrix.msc3245.voice` and MSC1767's audio
 * block, which Element draws as a voice message: the exact duration in milliseconds and a
 * waveform of up to {@link MAX_WAVEFORM_SAMPLES} integers 0–1024 (MSC3246), each the peak of
 * its window of the decoded Opus (core's `decodeOpusPeaks`, as Discord's adapter computes its
 * own). Audio that cannot be decoded is refused as a voice note
 * (`UnsupportedFeatureError("voice")`), so the engine sends it as an audio file, degraded.
 */
import { decodeOpusPeaks, downsamplePeaks, type MediaOperation, UnsupportedFeatureError } from "@outbox/core";
import { type Content, voiceFields } from "./content.js";

/** Most waveform samples sent (Element draws about this many bars). */
export const MAX_WAVEFORM_SAMPLES = 100;
/** Largest waveform value (MSC3246). */
const WAVEFORM_MAX = 1024;

/** The content of a voice note, from its `m.audio` content. */
export async function voiceContent(op: MediaOperation, audio: Content): Promise<Content> {
  if (op.caption !== undefined)
    // Not planned with Matrix's capabilities (`voice.caption: false`); refused so the engine
    // sends an audio file with the text instead of losing the text.
    throw new UnsupportedFeatureError("voice", "Matrix voice messages carry no caption");
  let decoded: Awaited<ReturnType<typeof decodeOpusPeaks>>;
  try {
    decoded = await decodeOpusPeaks(op.media.open());
  } catch (error) {
    throw new UnsupportedFeatureError(
      "voice",
      `${op.media.fileName} could not be decoded as OGG/Opus for the voice message's waveform (${(error as Error).message})`,
      { cause: error },
    );
  }
  const count = Math.max(1, Math.min(MAX_WAVEFORM_SAMPLES, Math.floor(decoded.durationSecs * 10)));
  const waveform = downsamplePeaks(decoded.peaks, count).map((peak) => Math.round(peak * WAVEFORM_MAX));
  const durationMs = Math.max(1, Math.round(decoded.durationSecs * 1000));
  const info = { ...(audio.info as Content), duration: durationMs };
  return { ...audio, info, ...voiceFields(durationMs, waveform) };
}
