import { describe, expect, it } from "vitest";
import { loadMedia } from "../../src/index.js";
import { drain } from "./helpers/harness.js";
import { gif, oggOpus, png, zip } from "./helpers/samples.js";

describe("loadMedia: inline data", () => {
  it("loads base64 with the declared name and sniffed type", async () => {
    const media = await loadMedia({
      mimeType: "image/png",
      base64: png(10, 20).toString("base64"),
      fileName: "dot",
    });
    expect(media).toMatchObject({
      kind: "image",
      mimeType: "image/png",
      fileName: "dot.png",
      width: 10,
      height: 20,
    });
    expect(media.source).toEqual({ type: "inline" });
    expect((await drain(media.open())).equals(png(10, 20))).toBe(true);
  });

  it("loads bytes and re-yields them on every open()", async () => {
    const voice = oggOpus(1_500, 200_000);
    const media = await loadMedia({ mimeType: " Audio/Ogg; codecs=opus ", data: voice });
    expect(media).toMatchObject({
      kind: "audio",
      mimeType: "audio/ogg",
      durationMs: 1_500,
      size: voice.length,
    });
    expect((await drain(media.open())).equals(voice)).toBe(true);
    expect((await drain(media.open())).equals(voice)).toBe(true);
    // Already in memory: one chunk, the caller's bytes (no copy, one socket write upstream).
    const chunks: Uint8Array[] = [];
    for await (const chunk of media.open()) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.buffer).toBe(voice.buffer);
  });

  it("loads data: URIs, base64 and percent-encoded", async () => {
    const media = await loadMedia(`data:image/gif;base64,${gif().toString("base64")}`);
    expect(media.kind).toBe("animation");
    const text = await loadMedia("data:text/plain,hello%20world%FF");
    expect(text).toMatchObject({ mimeType: "text/plain", size: 12 });
    expect((await drain(text.open())).at(-1)).toBe(0xff);
  });

  it("accepts base64 with line breaks, base64url, and a data: URI in the base64 field", async () => {
    const wrapped = png()
      .toString("base64")
      .replace(/(.{20})/g, "$1\n");
    expect((await loadMedia({ mimeType: "image/png", base64: wrapped })).size).toBe(png().length);
    expect((await loadMedia({ mimeType: "image/png", base64: png().toString("base64url") })).size).toBe(
      png().length,
    );
    const uri = `data:image/png;base64,${png().toString("base64")}`;
    expect((await loadMedia({ mimeType: "image/png", base64: uri })).mimeType).toBe("image/png");
  });

  it("accepts a generic or same-family declaration", async () => {
    expect((await loadMedia({ mimeType: "application/octet-stream", data: png() })).mimeType).toBe(
      "image/png",
    );
    expect((await loadMedia({ mimeType: "image/jpeg", data: png() })).mimeType).toBe("image/png");
    expect((await loadMedia({ mimeType: "image/png", data: gif() })).kind).toBe("animation");
  });

  it("uses the declared type when the bytes say nothing", async () => {
    const media = await loadMedia({ mimeType: "text/markdown", data: Buffer.from("# hi") });
    expect(media).toMatchObject({ mimeType: "text/markdown", kind: "document", fileName: "document.md" });
  });

  it("lets an Office extension name a zip container, but not a text extension", async () => {
    const docx = await loadMedia({
      mimeType: "application/octet-stream",
      data: zip(),
      fileName: "report.docx",
    });
    expect(docx).toMatchObject({
      mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      kind: "document",
    });
    const renamed = await loadMedia({
      mimeType: "application/octet-stream",
      data: zip(),
      fileName: "notes.txt",
    });
    expect(renamed.mimeType).toBe("application/zip");
  });
});
