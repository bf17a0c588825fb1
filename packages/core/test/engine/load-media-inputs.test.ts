import { describe, expect, it, vi } from "vitest";
import { loadMediaInputs } from "../../src/engine/load-media-inputs.js";
import { MediaError } from "../../src/errors/errors.js";
import type { MediaPolicy } from "../../src/media/types.js";
import { testCapabilities } from "./support/recording-transport.js";

const seen: Array<number | undefined> = [];
vi.mock("../../src/media/index.js", () => ({
  loadMedia: async (ref: unknown, policy: MediaPolicy) => {
    seen.push(policy.maxBytes);
    if (ref === "https://cdn.example.com/huge.mp4") throw new MediaError("too-large", "over 50000 bytes");
    if (ref === "/w/huge.mp4") throw new MediaError("too-large", "over 50000 bytes", { ref: "/w/huge.mp4" });
    if (ref === "/w/odd") throw new Error("EIO");
    return {
      kind: "image",
      mimeType: "image/png",
      fileName: "a.png",
      size: 1,
      source: { type: "inline" },
      open: async function* () {},
    };
  },
}));

const payload = (mediaUrls: string[]) => ({
  text: "",
  mediaUrls,
  media: [{ mimeType: "image/png", data: new Uint8Array([1]) }],
  audioAsVoice: false,
  replyToCurrent: false,
  embeds: [],
});

describe("loadMediaInputs", () => {
  it("caps the loader at the platform's largest upload, turns an over-limit https URL into a link, keeps order", async () => {
    seen.length = 0;
    const inputs = await loadMediaInputs(
      payload(["https://cdn.example.com/huge.mp4", "/w/huge.mp4", "/w/odd"]),
      testCapabilities(),
      { maxBytes: 1e9 },
      undefined,
    );
    expect(seen).toEqual([50_000, 50_000, 50_000, 50_000]);
    expect(inputs.map((i) => i.status)).toEqual(["link", "failed", "failed", "loaded"]);
    expect(inputs[0]).toMatchObject({ url: "https://cdn.example.com/huge.mp4" });
    expect(inputs[1]).toMatchObject({ error: { code: "media_too_large" } });
    expect(inputs[2]).toMatchObject({ error: { code: "media_fetch_failed", ref: "/w/odd" } });
  });

  it("keeps a lower policy cap", async () => {
    seen.length = 0;
    await loadMediaInputs(payload([]), testCapabilities(), { maxBytes: 10 }, undefined);
    expect(seen).toEqual([10]);
  });
});
