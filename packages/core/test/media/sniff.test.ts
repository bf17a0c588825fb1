import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadMedia } from "../../src/index.js";
import { readImageSize } from "../../src/media/sniff/image-size.js";
import { kindOfMimeType, normalizeMimeType } from "../../src/media/sniff/mime.js";
import { readMp4Video } from "../../src/media/sniff/mp4-video.js";
import { readOggDurationMs } from "../../src/media/sniff/ogg-duration.js";
import { gif, jpeg, oggOpus, png, webp } from "./helpers/samples.js";

describe("MIME types", () => {
  it.each([
    [" Audio/Ogg; codecs=opus ", "audio/ogg"],
    ["image/JPG", "image/jpeg"],
    ["audio/x-m4a", "audio/mp4"],
    ["audio/mp3", "audio/mpeg"],
    ["", undefined],
    ["not a type", undefined],
  ])("normalizes %j to %s", (input, expected) => {
    expect(normalizeMimeType(input)).toBe(expected);
  });

  it.each([
    ["image/png", "image"],
    ["image/gif", "animation"],
    ["image/svg+xml", "document"],
    ["video/mp4", "video"],
    ["audio/ogg", "audio"],
    ["application/x-msdownload", "document"],
    ["application/zip", "document"],
    ["text/plain", "document"],
  ])("%s is a %s", (mime, kind) => {
    expect(kindOfMimeType(mime)).toBe(kind);
  });
});

describe("image sizes", () => {
  it.each([
    ["image/png", png(1, 2), 1, 2],
    ["image/gif", gif(300, 65_535), 300, 65_535],
    ["image/jpeg", jpeg(4000, 3000), 4000, 3000],
    ["image/webp", webp(16_383, 9), 16_383, 9],
  ])("reads %s dimensions", (mime, bytes, width, height) => {
    expect(readImageSize(mime, bytes)).toEqual({ width, height });
  });

  it("reads lossless and extended WebP headers", () => {
    const lossless = webp();
    lossless.write("VP8L", 12, "latin1");
    lossless.writeUInt32LE((99 & 0x3fff) | ((49 & 0x3fff) << 14), 21);
    expect(readImageSize("image/webp", lossless)).toEqual({ width: 100, height: 50 });
    const extended = webp();
    extended.write("VP8X", 12, "latin1");
    extended.writeUIntLE(1919, 24, 3);
    extended.writeUIntLE(1079, 27, 3);
    expect(readImageSize("image/webp", extended)).toEqual({ width: 1920, height: 1080 });
  });

  it("gives up on truncated headers", () => {
    expect(readImageSize("image/png", png().subarray(0, 20))).toBeUndefined();
    expect(readImageSize("image/jpeg", jpeg().subarray(0, 30))).toBeUndefined();
    expect(readImageSize("image/bmp", png())).toBeUndefined();
  });
});

describe("OGG duration", () => {
  it("subtracts the Opus pre-skip from the last granule position", () => {
    const ogg = oggOpus(61_000);
    expect(readOggDurationMs(ogg, ogg)).toBe(61_000);
  });

  it("reads Vorbis streams at their own sample rate", () => {
    const ogg = oggOpus(2_000);
    const body = 28;
    ogg.set([1, 0x76, 0x6f, 0x72, 0x62, 0x69, 0x73, 0, 0, 0, 0, 1], body);
    ogg.writeUInt32LE(44_100, body + 12);
    const granule = ogg.readBigUInt64LE(ogg.lastIndexOf("OggS") + 6);
    expect(readOggDurationMs(ogg, ogg)).toBe(Math.round((Number(granule) * 1000) / 44_100));
  });

  it("is undefined for non-OGG data", () => {
    expect(readOggDurationMs(png(), png())).toBeUndefined();
  });
});

describe("MP4 video facts", () => {
  const clip = readFileSync(new URL("../../../conformance/fixtures/clip.mp4", import.meta.url));

  it("reads the picture size and duration from a leading moov box", () => {
    expect(readMp4Video(clip)).toEqual({ width: 16, height: 16, durationMs: expect.any(Number) });
    expect(readMp4Video(clip)?.durationMs).toBeGreaterThan(0);
  });

  it("gives up when the moov box runs past the head, or on other bytes", () => {
    expect(readMp4Video(clip.subarray(0, 400))).toBeUndefined();
    expect(readMp4Video(new Uint8Array(64))).toBeUndefined();
  });

  it("loadMedia hands them over on the loaded video", async () => {
    const media = await loadMedia({ mimeType: "video/mp4", data: clip, fileName: "clip.mp4" });
    expect(media).toMatchObject({ kind: "video", width: 16, height: 16 });
    expect(media.durationMs).toBeGreaterThan(0);
  });
});
