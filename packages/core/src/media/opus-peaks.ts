/**
 * The loudness of a voice note over time, for the waveform chat clients draw on it (Discord
 * voice messages, Matrix MSC3245/MSC1767): OGG pages parsed by `codec-parser`, Opus decoded by
 * `opus-decoder` (libopus in WebAssembly, no native build). The stream is decoded as it is
 * read; only one peak per 10 ms is kept. Each platform scales and counts its samples itself
 * ({@link downsamplePeaks}). Both libraries are imported on the first voice note, not with
 * core (they cost about 36 ms of start-up that a process sending no voice notes never pays).
 * They are optional peers of core, installed by the adapters that draw waveforms (Discord,
 * Matrix): an integrator of any other adapter never installs the WebAssembly decoder.
 */
import type { OggPage, OpusHeader } from "codec-parser";
import type { OpusDecoder } from "opus-decoder";
import { UnsupportedFeatureError } from "../errors/errors.js";

/** The install line named when a decoding library is missing (the versions core is tested with). */
export const OPUS_INSTALL = "npm install opus-decoder@0.7.12 codec-parser@2.5.0";

/**
 * Imports one of the decoding libraries. A missing one is an {@link UnsupportedFeatureError}
 * for `voice` that names what to install.
 */
export async function importVoiceLibrary<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw error;
    throw new UnsupportedFeatureError(
      "voice",
      `decoding a voice note needs the optional packages opus-decoder and codec-parser (${OPUS_INSTALL}): ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** Samples per second of decoded Opus. */
const RATE = 48_000;
/** Decoded samples per kept peak (10 ms). */
const STEP = 480;

/** What decoding a voice note found. */
export interface OpusPeaks {
  /** Exact duration in seconds (the last page's granule position less the pre-skip). */
  durationSecs: number;
  /** Peak absolute amplitude (over all channels, 0–1) of each 10 ms, in order. */
  peaks: number[];
}

/** Downsample peaks to `count` windows, each the largest peak in it (0–1). */
export function downsamplePeaks(peaks: ArrayLike<number>, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const from = Math.floor((i * peaks.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / count));
    let peak = 0;
    for (let j = from; j < to && j < peaks.length; j += 1) peak = Math.max(peak, peaks[j] ?? 0);
    out.push(Math.min(1, peak));
  }
  return out;
}

/** Decode an OGG/Opus stream into its duration and peaks. Rejects when it is not decodable Opus. */
export async function decodeOpusPeaks(source: AsyncIterable<Uint8Array>): Promise<OpusPeaks> {
  const [{ default: CodecParser }, { OpusDecoder }] = await Promise.all([
    importVoiceLibrary<typeof import("codec-parser")>("codec-parser"),
    importVoiceLibrary<typeof import("opus-decoder")>("opus-decoder"),
  ]);
  const parser = new CodecParser<OggPage>("application/ogg", { enableFrameCRC32: false });
  const peaks = new PeakTracker();
  let decoder: OpusDecoder | undefined;
  let preSkip = 0;
  let granule = -1;
  const pages = async (iterator: Iterator<OggPage>) => {
    for (let next = iterator.next(); !next.done; next = iterator.next()) {
      const page = next.value;
      const frames = page.codecFrames;
      if (frames.length === 0) continue;
      if (decoder === undefined) {
        const header = frames[0]?.header as OpusHeader;
        preSkip = header.preSkip;
        decoder = new OpusDecoder({
          channels: header.channels,
          streamCount: header.streamCount,
          coupledStreamCount: header.coupledStreamCount,
          channelMappingTable: header.channelMappingTable,
          preSkip,
        });
        await decoder.ready;
      }
      const { channelData, samplesDecoded } = decoder.decodeFrames(frames.map((frame) => frame.data));
      peaks.take(channelData, samplesDecoded);
      granule = Math.max(granule, Number(page.absoluteGranulePosition));
    }
  };
  try {
    for await (const chunk of source) await pages(parser.parseChunk(chunk));
    await pages(parser.flush());
  } finally {
    decoder?.free();
  }
  // The last page's granule position (less the pre-skip) is the exact length; the decoder
  // may have produced a few samples of padding past it.
  const total = granule >= preSkip ? Math.min(peaks.total, granule - preSkip) : peaks.total;
  if (decoder === undefined || total <= 0)
    throw new Error("no Opus audio could be decoded from the OGG stream");
  return { durationSecs: total / RATE, peaks: peaks.upTo(total) };
}

/** One peak per {@link STEP} decoded samples, over all channels. */
class PeakTracker {
  /** Samples seen. */
  total = 0;
  private readonly peaks: number[] = [];
  private current = 0;

  take(channels: Float32Array[], length: number): void {
    for (let i = 0; i < length; i += 1) {
      for (const channel of channels) this.current = Math.max(this.current, Math.abs(channel[i] ?? 0));
      this.total += 1;
      if (this.total % STEP === 0) {
        this.peaks.push(this.current);
        this.current = 0;
      }
    }
  }

  /** The peaks of the first `samples` samples. */
  upTo(samples: number): number[] {
    const whole = this.peaks.slice(0, Math.ceil(samples / STEP));
    if (whole.length * STEP < samples) whole.push(this.current);
    return whole;
  }
}
