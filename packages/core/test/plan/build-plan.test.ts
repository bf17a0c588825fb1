import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../src/engine/clock.js";
import { createPacer } from "../../src/engine/pacer.js";
import { resolveRetryPolicy } from "../../src/engine/retry.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { MediaError, PlatformError } from "../../src/errors/errors.js";
import { parseReplyMarkdown } from "../../src/markdown/parse-reply-markdown.js";
import type { LoadedMedia, MediaKind } from "../../src/media/types.js";
import { planDelivery } from "../../src/plan/build-plan.js";
import type { MediaInput } from "../../src/plan/types.js";
import { createRecordingTransport, testCapabilities } from "../engine/support/recording-transport.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";

const MIME: Record<MediaKind, string> = {
  image: "image/png",
  animation: "image/gif",
  video: "video/mp4",
  audio: "audio/ogg",
  document: "application/pdf",
};

function media(kind: MediaKind, extra: Partial<LoadedMedia> = {}): LoadedMedia {
  return {
    kind,
    mimeType: MIME[kind],
    fileName: `f.${kind}`,
    size: 100,
    source: { type: "inline" },
    ...(kind === "image" ? { width: 10, height: 10 } : {}),
    open: async function* () {},
    ...extra,
  };
}
const loaded = (kind: MediaKind, extra?: Partial<LoadedMedia>): MediaInput => ({
  status: "loaded",
  media: media(kind, extra),
});
const plan = (text: string, items: MediaInput[], audioAsVoice = false, caps = testCapabilities()) =>
  planDelivery({ tree: parseReplyMarkdown(text), media: items, audioAsVoice }, caps, htmlRenderer);

describe("planDelivery", () => {
  it("captions the first native media message, even after a failed item", () => {
    const failed: MediaInput = { status: "failed", error: new MediaError("blocked", "no") };
    const { parts } = plan("hi", [failed, loaded("document")]);
    expect(parts.map((p) => p.type)).toEqual(["failed", "media"]);
    expect(parts[1]?.type === "media" && parts[1].caption?.text).toBe("hi");
  });

  it("captions an album", () => {
    const { parts } = plan("hi", [loaded("image"), loaded("video")]);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.type === "album" && parts[0].caption?.text).toBe("hi");
  });

  it("notes a flattened chunk as degraded formatting", () => {
    const caps = testCapabilities({ text: { maxLength: 60, format: "x" } });
    const { parts, degraded } = plan(`[x](https://example.com/${"p".repeat(100)})`, [], false, caps);
    expect(parts.length).toBeGreaterThan(1);
    expect(degraded[0]).toMatchObject({ from: "formatting", to: "plain" });
  });

  it("sends text without caption when the platform has no captions", () => {
    const { parts } = plan("hi", [loaded("image")], false, testCapabilities({ caption: null }));
    expect(parts.map((p) => p.type)).toEqual(["text", "media"]);
  });

  it("does not mix album groups and leaves a lone item alone", () => {
    const { parts } = plan("", [loaded("image"), loaded("document"), loaded("document"), loaded("audio")]);
    expect(parts.map((p) => (p.type === "album" ? `album${p.items.length}` : p.type))).toEqual([
      "media",
      "album2",
      "media",
    ]);
  });

  it("never puts a voice note in an album", () => {
    const { parts } = plan("", [loaded("audio"), loaded("audio")], true);
    expect(parts.map((p) => (p.type === "media" ? p.kind : p.type))).toEqual(["voice", "voice"]);
  });

  it("sends the text first when the first native message is a voice note that carries no caption", () => {
    const base = testCapabilities();
    const caps = testCapabilities({ voice: { ...base.voice, caption: false } });
    const { parts } = plan("hi", [loaded("audio"), loaded("image")], true, caps);
    expect(parts.map((p) => (p.type === "media" ? `${p.kind}:${p.caption?.text ?? ""}` : p.type))).toEqual([
      "text",
      "voice:",
      "image:",
    ]);
    const captioned = plan("hi", [loaded("audio")], true);
    expect(captioned.parts.map((p) => p.type === "media" && p.caption?.text)).toEqual(["hi"]);
  });

  it("sends the text first when the first native message is a kind whose messages carry no caption", () => {
    const base = testCapabilities();
    const caps = testCapabilities({ caption: { maxLength: 1024, kinds: ["image"] } });
    const shown = (parts: ReturnType<typeof plan>["parts"]) =>
      parts.map((p) => (p.type === "media" ? `${p.kind}:${p.caption?.text ?? ""}` : p.type));
    expect(shown(plan("hi", [loaded("audio"), loaded("image")], false, caps).parts)).toEqual([
      "text",
      "audio:",
      "image:",
    ]);
    expect(shown(plan("hi", [loaded("image")], false, caps).parts)).toEqual(["image:hi"]);
    expect(shown(plan("hi", [loaded("audio")], false, base).parts)).toEqual(["audio:hi"]);
  });

  it("sends a type a kind does not take (media.formats) as a document, or fails it when no kind takes it", () => {
    const caps = testCapabilities({
      media: {
        kinds: ["image", "audio", "document"],
        formats: { image: ["image/png"], audio: ["audio/mpeg"], document: ["application/pdf", "image/webp"] },
        maxBytes: { default: 1000 },
      },
    });
    const { parts, degraded } = plan(
      "",
      [
        loaded("image", { mimeType: "image/webp" }),
        loaded("animation"),
        loaded("audio", { mimeType: "audio/wav" }),
      ],
      false,
      caps,
    );
    expect(parts.map((p) => (p.type === "media" ? p.kind : p.type))).toEqual([
      "document",
      "failed",
      "failed",
    ]);
    expect(degraded).toEqual([
      expect.objectContaining({
        part: 0,
        from: "image",
        to: "document",
        reason: expect.stringContaining("image/webp"),
      }),
    ]);
    const failure = parts[1]?.type === "failed" ? parts[1].error : undefined;
    expect(failure).toBeInstanceOf(MediaError);
    expect(failure?.message).toMatch(/image\/gif cannot be sent here/);
    expect(parts[2]?.type === "failed" && parts[2].error.code).toBe("media_unsupported_type");
  });

  it("sends an animation as an image where the platform has no animations", () => {
    const caps = testCapabilities({ media: { kinds: ["image", "document"], maxBytes: { default: 1000 } } });
    const { parts, degraded } = plan("", [loaded("animation")], false, caps);
    expect(parts[0]?.type === "media" && parts[0].kind).toBe("image");
    expect(degraded[0]).toMatchObject({ part: 0, from: "animation", to: "image" });
  });

  it("degrades an over-limit item with an https source to a link, and fails one without", () => {
    const big = { size: 10_000_000 };
    const { parts, degraded } = plan("", [
      loaded("video", { ...big, source: { type: "url", url: "https://cdn.example.com/v.mp4" } }),
      loaded("video", { ...big, source: { type: "file", path: "/w/v.mp4" } }),
      { status: "link", url: "https://cdn.example.com/huge.bin", reason: "over the limit" },
    ]);
    expect(parts.map((p) => p.type)).toEqual(["text", "failed", "text"]);
    expect(parts[0]?.type === "text" && parts[0].text.text).toContain('href="https://cdn.example.com/v.mp4"');
    expect(degraded.map((d) => [d.part, d.to])).toEqual([
      [0, "link"],
      [2, "link"],
    ]);
  });
});

const kinds = fc.constantFrom<MediaKind>("image", "animation", "video", "audio", "document");
const input: fc.Arbitrary<MediaInput> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.tuple(kinds, fc.integer({ min: 1, max: 80_000 })).map(([k, size]) => loaded(k, { size })),
  },
  {
    weight: 1,
    arbitrary: fc.constant<MediaInput>({ status: "failed", error: new MediaError("blocked", "no") }),
  },
  {
    weight: 1,
    arbitrary: fc.constant<MediaInput>({ status: "link", url: "https://e.x/big", reason: "big" }),
  },
);

describe("plan and receipt (property)", () => {
  it("every input item lands in exactly one part, in order, and every part is delivered, degraded or failed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 300 }),
        fc.array(input, { maxLength: 14 }),
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
        async (text, items, voice, failing) => {
          const result = plan(text, items, voice);
          const sources = result.parts.flatMap((part) => part.sources).sort((a, b) => a - b);
          expect(sources).toEqual(items.map((_, index) => index));
          const clock = createManualClock();
          const transport = createRecordingTransport(clock);
          transport.behave((_op, call) => {
            if (failing[call % 30])
              throw new PlatformError("no", { method: "x", status: 400, description: "no" });
            return undefined;
          });
          const receipt = await clock.run(
            runPlan(result, {
              transport,
              target: { to: "t" },
              sendKey: "property",
              retry: {
                policy: resolveRetryPolicy(),
                clock,
                pacer: createPacer([], clock),
                to: "t",
                signal: undefined,
              },
              replyTo: undefined,
              replyMode: "first",
              replyDropped: undefined,
              journal: { fingerprint: "", messages: [], degraded: [], deliveredParts: [] },
              save: undefined,
              secrets: [],
              ambiguous: "report",
            }),
          );
          const delivered = new Set(receipt.messages.map((m) => m.part));
          const failed = new Set(receipt.failures.map((f) => f.part));
          result.parts.forEach((_, index) => {
            expect(delivered.has(index) || failed.has(index)).toBe(true);
          });
          for (const entry of receipt.degraded) expect(entry.part).toBeLessThan(result.parts.length);
          expect(receipt.ok).toBe(failed.size === 0);
        },
      ),
      { numRuns: 150 },
    );
  });
});
