/**
 * What Discord shows of a voice message besides its audio: the duration and the waveform,
 * from core's Opus decoding (`decodeOpusPeaks`). The waveform is at most 256 samples and at
 * most one per 100 ms (Discord's rules): the audio is cut into that many equal windows, and
 * each sample is the window's peak absolute amplitude (over all channels) scaled to 0–255.
 */
import { decodeOpusPeaks, downsamplePeaks } from "@outbox/core";

/** Most waveform samples Discord takes. */
export const MAX_WAVEFORM_SAMPLES = 256;

/** Duration and waveform of a voice message. */
export interface VoiceMetadata {
  /** Duration in seconds. */
  durationSecs: number;
  /** Waveform samples, base64 (one byte each). */
  waveform: string;
  /** The same samples as numbers, 0–255. */
  samples: Uint8Array;
}

/** How many waveform samples a clip of this many seconds gets. */
export function waveformLength(durationSecs: number): number {
  return Math.max(1, Math.min(MAX_WAVEFORM_SAMPLES, Math.floor(durationSecs * 10)));
}

/** Decode an OGG/Opus stream and compute its voice-message metadata. Rejects when it is not decodable Opus. */
export async function voiceMetadata(source: AsyncIterable<Uint8Array>): Promise<VoiceMetadata> {
  const { durationSecs, peaks } = await decodeOpusPeaks(source);
  const samples = Uint8Array.from(
    downsamplePeaks(peaks, waveformLength(durationSecs)).map((peak) => Math.round(peak * 255)),
  );
  return { durationSecs, waveform: Buffer.from(samples).toString("base64"), samples };
}
