import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toTextOrImageContent } from "../src/index.js";

const PNG = "iVBORw0KGgo=";

describe("toTextOrImageContent", () => {
  it("applies the coercion rules to every block type", () => {
    const out = toTextOrImageContent([
      { type: "text", text: "hello" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "resource_link", uri: "file:///a.txt", name: "a", title: "A file" },
      { type: "resource_link", uri: "file:///b.txt", name: "b" },
      { type: "resource_link", uri: "file:///c.txt" },
      { type: "resource", resource: { uri: "file:///d.txt", text: "inline text" } },
      { type: "resource", resource: { uri: "file:///e.bin", blob: "AAAA" } },
      { type: "audio", data: "AAAA", mimeType: "audio/ogg" },
      { type: "video_v2", url: "x" },
      "bare",
      null,
    ]);
    expect(out).toEqual([
      { type: "text", text: "hello" },
      { type: "image", data: PNG, mimeType: "image/png" },
      { type: "text", text: "[A file] file:///a.txt" },
      { type: "text", text: "[b] file:///b.txt" },
      { type: "text", text: "file:///c.txt" },
      { type: "text", text: "inline text" },
      { type: "text", text: "file:///e.bin" },
      { type: "text", text: "[audio audio/ogg]" },
      { type: "text", text: '{"type":"video_v2","url":"x"}' },
      { type: "text", text: '"bare"' },
      { type: "text", text: "null" },
    ]);
  });

  it("turns malformed images into the text of their JSON", () => {
    const malformed = [
      { type: "image", data: "", mimeType: "image/png" },
      { type: "image", data: PNG },
      { type: "image", data: PNG, mimeType: "text/html" },
      { type: "image", data: "not base64!", mimeType: "image/png" },
      { type: "image", data: "iVBORw0KGgo", mimeType: "image/png" },
      { type: "image", data: 42, mimeType: "image/png" },
    ];
    const out = toTextOrImageContent(malformed);
    expect(out.map((block) => block.type)).toEqual(malformed.map(() => "text"));
    expect(out[1]).toEqual({ type: "text", text: JSON.stringify(malformed[1]) });
  });

  it("puts structuredContent first as JSON and drops extra fields of images", () => {
    const out = toTextOrImageContent([{ type: "image", data: PNG, mimeType: "image/png", _meta: { x: 1 } }], {
      structuredContent: { ok: true },
    });
    expect(out).toEqual([
      { type: "text", text: JSON.stringify({ ok: true }, null, 2) },
      { type: "image", data: PNG, mimeType: "image/png" },
    ]);
  });

  it("cuts the JSON of a huge unusable block", () => {
    const [block] = toTextOrImageContent([{ type: "image", data: "x".repeat(100_000) }]);
    expect(block?.type).toBe("text");
    expect((block as { text: string }).text.length).toBeLessThan(9000);
    expect((block as { text: string }).text).toMatch(/more characters omitted\)$/);
  });

  it("property: any JSON value in, only text and valid image blocks out, never throws", () => {
    const validBase64 = /^[A-Za-z0-9+/]+={0,2}$/;
    const blockLike = fc.oneof(
      fc.jsonValue(),
      fc.record({
        type: fc.constantFrom("text", "image", "audio", "resource", "resource_link", "x"),
        text: fc.jsonValue(),
        data: fc.oneof(fc.base64String(), fc.string(), fc.jsonValue()),
        mimeType: fc.oneof(fc.constantFrom("image/png", "image/", "audio/ogg", "IMAGE/JPEG"), fc.string()),
        uri: fc.jsonValue(),
        resource: fc.jsonValue(),
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.array(blockLike)), fc.jsonValue(), (blocks, structured) => {
        const out = toTextOrImageContent(blocks as unknown[], { structuredContent: structured });
        for (const block of out) {
          expect(Object.keys(block).sort()).toEqual(
            block.type === "text" ? ["text", "type"] : ["data", "mimeType", "type"],
          );
          if (block.type === "text") expect(typeof block.text).toBe("string");
          else {
            expect(block.type).toBe("image");
            expect(block.data.length % 4).toBe(0);
            expect(block.data).toMatch(validBase64);
            expect(block.mimeType).toMatch(/^image\/[a-z0-9]/i);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
