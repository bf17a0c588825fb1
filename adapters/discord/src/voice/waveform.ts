/**
 * What Discord shows of a voice message besides its audio: the duration and the waveform,
 * computed from the decoded audio: Ogg pages parsed by `codec-parser`, Opus decoded by
 * `opus-decoder` (libopus in WebAssembly, no native build). The stream is decoded as it is
 * read; only one peak per 10 ms is kept.
 *
 * The waveform is at most 256 samples and at most one per 100 ms (Discord's rules): the
 * audio is cut into that many equal windows, and each sample is the window's peak absolute
 * amplitude (over all channels) scaled to 0–255.
 */
import CodecParser, { type OggPage, type OpusHeader } from "codec-parser";
import { OpusDecoder } from "opus-decoder";

/** Samples per second of decoded Opus. */
const RATE = 48_000;
/** Decoded samples per kept peak (10 ms). */
const STEP = 480;
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

/** Downsample peaks to `count` windows (max of each), scaled to bytes. */
export function waveformOf(peaks: ArrayLike<number>, count: number): Uint8Array {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i += 1) {
    const from = Math.floor((i * peaks.length) / count);
    const to = Math.max(from + 1, Math.floor(((i + 1) * peaks.length) / count));
    let peak = 0;
    for (let j = from; j < to && j < peaks.length; j += 1) peak = Math.max(peak, peaks[j] ?? 0);
    out[i] = Math.round(Math.min(1, peak) * 255);
  }
  return out;
}

/** Decode an OGG/Opus stream and compute its voice-message metadata. Rejects when it is not decodable Opus. */
export async function voiceMetadata(source: AsyncIterable<Uint8Array>): Promise<VoiceMetadata> {
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
  const durationSecs = total / RATE;
  const samples = waveformOf(peaks.upTo(total), waveformLength(durationSecs));
  return { durationSecs, waveform: Buffer.from(samples).toString("base64"), samples };
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
