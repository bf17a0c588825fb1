/**
 * Voice messages: flags 8192, one audio/ogg attachment with duration and a waveform from
 * the decoded audio, no content (text in its own message first); other formats → audio.
 * The waveform is checked against an independent computation: the Ogg pages parsed here by
 * hand and every Opus packet decoded on its own, peaks taken over the whole PCM.
 */
import { readFileSync } from "node:fs";
import { fixturePath } from "@outbox/conformance";
import { OpusDecoder } from "opus-decoder";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../src/index.js";
import { DEFAULT_CHANNEL, type DiscordEmulator, startDiscordEmulator } from "../src/testing/index.js";
import { voiceMetadata, waveformLength } from "../src/voice/waveform.js";

let emulator: DiscordEmulator;
beforeEach(async () => {
  emulator = await startDiscordEmulator({
    messageBucket: false,
    channels: [{ id: DEFAULT_CHANNEL }, { id: "1100000000000000004", voiceMessages: false }],
  });
});
afterEach(() => emulator.close());

const adapter = () =>
  createDiscordAdapter({
    token: emulator.token,
    api: emulator.api,
    media: { localRoots: [fixturePath("ogg").replace(/[^/]+$/, "")] },
  });

/** Opus packets of an Ogg stream, by reading page headers and lacing values. */
function oggPackets(bytes: Buffer): { packets: Buffer[]; granule: number } {
  const packets: Buffer[] = [];
  let pending: Buffer[] = [];
  let granule = 0;
  for (let at = 0; at < bytes.length; ) {
    expect(bytes.toString("latin1", at, at + 4)).toBe("OggS");
    granule = Number(bytes.readBigInt64LE(at + 6));
    const segments = bytes[at + 26] as number;
    let body = at + 27 + segments;
    for (let s = 0; s < segments; s += 1) {
      const lace = bytes[at + 27 + s] as number;
      pending.push(bytes.subarray(body, body + lace));
      body += lace;
      if (lace < 255) {
        packets.push(Buffer.concat(pending));
        pending = [];
      }
    }
    at = body;
  }
  return { packets: packets.slice(2), granule }; // OpusHead, OpusTags
}

describe("voice messages", () => {
  it("computes the waveform from the decoded audio (checked independently)", async () => {
    const bytes = readFileSync(fixturePath("ogg"));
    const { packets, granule } = oggPackets(bytes);
    const preSkip = bytes.readUInt16LE(bytes.indexOf("OpusHead") + 10);
    const decoder = new OpusDecoder({ channels: 1, preSkip });
    await decoder.ready;
    const pcm: number[] = [];
    for (const packet of packets) pcm.push(...decoder.decodeFrame(packet).channelData[0]!);
    decoder.free();
    const length = granule - preSkip;
    const seconds = length / 48_000;
    const count = waveformLength(seconds);
    const expected = Array.from({ length: count }, (_, i) => {
      let peak = 0;
      const from = Math.floor((i * length) / count);
      const to = Math.floor(((i + 1) * length) / count);
      for (let j = from; j < to; j += 1) peak = Math.max(peak, Math.abs(pcm[j] ?? 0));
      return Math.round(Math.min(1, peak) * 255);
    });
    const metadata = await voiceMetadata(
      (async function* () {
        // Uneven chunks: the decoder must not depend on page-aligned reads.
        for (let at = 0; at < bytes.length; at += 37) yield bytes.subarray(at, at + 37);
      })(),
    );
    expect(metadata.durationSecs).toBeCloseTo(seconds, 3);
    expect(metadata.samples).toHaveLength(count);
    // Same libopus, windows on 10 ms boundaries for this fixture (0.5 s → 5 windows of 100 ms): exact.
    expect([...metadata.samples]).toEqual(expected);
    expect(
      expected.some((v) => v > 0),
      "the fixture is not silence",
    ).toBe(true);
    expect(Buffer.from(metadata.waveform, "base64")).toEqual(Buffer.from(metadata.samples));
  });

  it("rejects what is not Opus", async () => {
    await expect(
      voiceMetadata(
        (async function* () {
          yield readFileSync(fixturePath("wav"));
        })(),
      ),
    ).rejects.toThrow();
  });

  it("sends flags 8192 with one audio/ogg attachment, duration and waveform, no content; the text goes first", async () => {
    const receipt = await adapter().send(
      { text: "Listen to **this**", mediaUrls: [fixturePath("ogg")], audioAsVoice: true },
      { to: DEFAULT_CHANNEL },
    );
    expect(receipt.ok).toBe(true);
    expect(receipt.messages.map((m) => m.kind)).toEqual(["text", "voice"]);
    expect(receipt.degraded).toEqual([]);
    const [text, voice] = emulator.messages();
    expect(text?.payload?.content).toBe("Listen to **this**");
    expect(voice?.payload).toMatchObject({ flags: 8192, attachments: [{ id: 0, filename: "voice.ogg" }] });
    expect(voice?.payload).not.toHaveProperty("content");
    const attachment = (voice?.payload?.attachments as Array<Record<string, unknown>> | undefined)?.[0];
    expect(attachment?.duration_secs).toBeCloseTo(0.5, 2);
    expect(attachment?.waveform).toBe(
      (
        await voiceMetadata(
          (async function* () {
            yield readFileSync(fixturePath("ogg"));
          })(),
        )
      ).waveform,
    );
    expect(emulator.observe().map((m) => [m.kind, m.mimeType])).toEqual([
      ["text", undefined],
      ["voice", "audio/ogg"],
    ]);
  });

  it("sends other formats, and voice where Discord refuses it, as an audio attachment with a degraded entry", async () => {
    const wav = await adapter().send(
      { mediaUrls: [fixturePath("wav")], audioAsVoice: true },
      { to: DEFAULT_CHANNEL },
    );
    expect(wav.degraded).toEqual([expect.objectContaining({ from: "voice", to: "audio" })]);
    const refused = await adapter().send(
      { mediaUrls: [fixturePath("ogg")], audioAsVoice: true },
      { to: "1100000000000000004" },
    );
    expect(refused.ok).toBe(true);
    expect(refused.degraded).toEqual([expect.objectContaining({ from: "voice", to: "audio" })]);
    expect(emulator.observe().map((m) => m.kind)).toEqual(["audio", "audio"]);
  });
});
