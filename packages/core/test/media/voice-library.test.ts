import { describe, expect, it } from "vitest";
import { UnsupportedFeatureError } from "../../src/errors/errors.js";
import { importVoiceLibrary, OPUS_INSTALL } from "../../src/media/opus-peaks.js";

describe("importVoiceLibrary", () => {
  it("loads an installed decoding library", async () => {
    const { OpusDecoder } = await importVoiceLibrary<typeof import("opus-decoder")>("opus-decoder");
    expect(typeof OpusDecoder).toBe("function");
  });

  it("names what to install when a library is missing, as a typed voice error", async () => {
    const missing = importVoiceLibrary("opus-decoder-that-is-not-installed");
    await expect(missing).rejects.toBeInstanceOf(UnsupportedFeatureError);
    await expect(missing).rejects.toMatchObject({ feature: "voice", code: "unsupported_feature" });
    await expect(missing).rejects.toThrow(OPUS_INSTALL);
  });
});
