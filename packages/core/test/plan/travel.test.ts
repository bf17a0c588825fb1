import { describe, expect, it } from "vitest";
import type { Capabilities } from "../../src/adapter/types.js";
import { validateCapabilities } from "../../src/engine/capabilities.js";
import { actionFor } from "../../src/errors/failure-entry.js";
import { parseReplyMarkdown } from "../../src/markdown/parse-reply-markdown.js";
import type { LoadedMedia } from "../../src/media/types.js";
import { planDelivery } from "../../src/plan/build-plan.js";
import type { MediaPart, TravelOptions } from "../../src/plan/types.js";
import { testCapabilities } from "../engine/support/recording-transport.js";
import { htmlRenderer } from "../markdown/support/html-renderer.js";

const URL_SOURCE = { type: "url", url: "https://cdn.example.com/report.pdf" } as const;

function pdf(size: number, source: LoadedMedia["source"] = { type: "inline" }): LoadedMedia {
  return {
    kind: "document",
    mimeType: "application/pdf",
    fileName: "report.pdf",
    size,
    source,
    open: async function* () {},
  };
}

/** Upload 50 000 bytes, URLs fetched up to 80 000, hosted links in the text up to 200 000. */
const caps = (media: Partial<Capabilities["media"]> = {}): Capabilities => {
  const base = testCapabilities();
  return testCapabilities({
    media: { ...base.media, byUrl: { default: 80_000 }, hostedLinks: { default: 200_000 }, ...media },
  });
};

function png(size: number): LoadedMedia {
  return { ...pdf(size), kind: "image", mimeType: "image/png", fileName: "chart.png", width: 8, height: 8 };
}

function planOne(item: LoadedMedia, capabilities: Capabilities, travel: TravelOptions) {
  return planDelivery(
    { tree: parseReplyMarkdown(""), media: [{ status: "loaded", media: item }], audioAsVoice: false, travel },
    capabilities,
    htmlRenderer,
  );
}

describe("how an item travels", () => {
  it("uploads by default, even an https item the platform could fetch", () => {
    const { parts } = planOne(pdf(1000, URL_SOURCE), caps(), {});
    expect(parts[0]).toMatchObject({ type: "media", kind: "document" });
    expect((parts[0] as MediaPart).via).toBeUndefined();
  });

  it("passes an https item through when opted in and within the URL limit", () => {
    const { parts, degraded } = planOne(pdf(60_000, URL_SOURCE), caps(), { passThrough: true });
    expect(parts[0]).toMatchObject({ type: "media", via: "url" });
    expect(degraded).toEqual([]);
  });

  it("never passes through a file or inline bytes", () => {
    const { parts } = planOne(pdf(1000), caps(), { passThrough: true });
    expect((parts[0] as MediaPart).via).toBeUndefined();
  });

  it("uploads a pass-through item over the URL limit when the upload limit takes it", () => {
    const { parts } = planOne(pdf(40_000, URL_SOURCE), caps({ byUrl: { default: 30_000 } }), {
      passThrough: true,
    });
    expect((parts[0] as MediaPart).via).toBeUndefined();
  });

  it("puts an item over the upload limit on the host when the platform fetches URLs", () => {
    const { parts } = planOne(pdf(60_000), caps(), { host: true });
    expect(parts[0]).toMatchObject({ type: "media", via: "hosted" });
  });

  it("fails an item that can only go by URL without a host, and the action names media.host", () => {
    for (const capabilities of [caps(), caps({ uploads: false })]) {
      const { parts } = planOne(pdf(capabilities.media.uploads === false ? 10 : 60_000), capabilities, {});
      expect(parts[0]?.type).toBe("failed");
      const error = parts[0]?.type === "failed" ? parts[0].error : undefined;
      expect(error?.code).toBe("unsupported_feature");
      expect(error?.message).toContain("no media host is configured");
      expect(actionFor(error as NonNullable<typeof error>, false)).toContain("media.host");
    }
  });

  it("sends nothing as bytes where the platform takes no uploads", () => {
    const { parts } = planOne(pdf(10), caps({ uploads: false }), { host: true });
    expect(parts[0]).toMatchObject({ type: "media", via: "hosted" });
  });

  it("puts an item over every platform limit on the host as a link in the text, degraded", () => {
    const { parts, degraded } = planOne(pdf(150_000), caps(), { host: true });
    expect(parts[0]).toMatchObject({ type: "media", via: "hosted-link" });
    expect(degraded).toEqual([
      expect.objectContaining({
        part: 0,
        from: "document",
        to: "link",
        reason: expect.stringContaining("hosted link"),
      }),
    ]);
  });

  it("keeps an https item over every limit as its own link, host or not", () => {
    const { parts } = planOne(pdf(150_000, URL_SOURCE), caps(), { host: true });
    expect(parts[0]?.type).toBe("text");
  });

  it("fails an item over the hosted-link limit too as too large", () => {
    const { parts } = planOne(pdf(300_000), caps(), { host: true });
    expect(parts[0]?.type === "failed" && parts[0].error.code).toBe("media_too_large");
  });

  it("hosts a kind the platform lacks, with no document to fall back on, as a link", () => {
    const capabilities = caps({ kinds: ["image"] });
    const { parts } = planOne(pdf(10), capabilities, { host: true });
    expect(parts[0]).toMatchObject({ type: "media", via: "hosted-link" });
    const without = planOne(
      pdf(10),
      { ...capabilities, media: { ...capabilities.media, hostedLinks: undefined } },
      { host: true },
    );
    expect(without.parts[0]?.type === "failed" && without.parts[0].error.code).toBe("unsupported_feature");
  });
});

describe("upload limits of 0: a kind never uploaded", () => {
  /** Teams' shape: images inline up to 10 000 bytes, every other kind only by URL (a host's link). */
  const inlineImages = (): Capabilities =>
    validateCapabilities(
      caps({ maxBytes: { default: 0, image: 10_000 }, byUrl: { default: 80_000 }, hostedLinks: undefined }),
    );

  it("are valid capabilities, while a way's limit of 0 or a negative upload limit is not", () => {
    expect(inlineImages().media.maxBytes).toEqual({ default: 0, image: 10_000 });
    const base = caps();
    expect(() =>
      validateCapabilities({ ...base, media: { ...base.media, maxBytes: { default: -1 } } }),
    ).toThrow("media.maxBytes.default: must be >= 0");
    expect(() => validateCapabilities({ ...base, media: { ...base.media, byUrl: { default: 0 } } })).toThrow(
      "media.byUrl.default: must be positive",
    );
  });

  it("uploads an image within its limit, with no host needed", () => {
    const { parts, degraded } = planOne(png(9_000), inlineImages(), {});
    expect(parts[0]).toMatchObject({ type: "media", kind: "image" });
    expect((parts[0] as MediaPart).via).toBeUndefined();
    expect(degraded).toEqual([]);
  });

  it("puts an image over its limit on the host as an image, not a document", () => {
    const { parts, degraded } = planOne(png(20_000), inlineImages(), { host: true });
    expect(parts[0]).toMatchObject({ type: "media", kind: "image", via: "hosted" });
    expect(degraded).toEqual([]);
  });

  it("fails an image over its limit without a host, the action naming media.host", () => {
    const { parts } = planOne(png(20_000), inlineImages(), {});
    const error = parts[0]?.type === "failed" ? parts[0].error : undefined;
    expect(error?.code).toBe("unsupported_feature");
    expect(error?.message).toContain("chart.png (20000 bytes)");
    expect(actionFor(error as NonNullable<typeof error>, false)).toContain("media.host");
  });

  it("sends any other kind, however small, through the host, and fails it without one", () => {
    const hosted = planOne(pdf(10), inlineImages(), { host: true });
    expect(hosted.parts[0]).toMatchObject({ type: "media", kind: "document", via: "hosted" });
    const without = planOne(pdf(10), inlineImages(), {});
    expect(without.parts[0]?.type === "failed" && without.parts[0].error.message).toContain(
      "no media host is configured",
    );
  });

  it("still demotes an image over the photo limit to an uploaded document where documents are uploaded", () => {
    const { parts, degraded } = planOne(png(20_000), caps(), { host: true });
    expect(parts[0]).toMatchObject({ type: "media", kind: "document" });
    expect((parts[0] as MediaPart).via).toBeUndefined();
    expect(degraded).toEqual([expect.objectContaining({ from: "image", to: "document" })]);
  });
});
