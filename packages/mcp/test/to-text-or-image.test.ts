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

describe("toTextOrImageContent on hostile and provider-unsafe blocks", () => {
  const png = (size: number) => {
    const bytes = Buffer.alloc(size);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    return bytes.toString("base64");
  };

  it("never throws: a throwing getter, a Proxy, a throwing array and options become text", () => {
    const getter = {
      type: "image",
      get data(): string {
        throw new Error("boom");
      },
    };
    const proxy = new Proxy(
      {},
      {
        get() {
          throw new Error("trap");
        },
        ownKeys() {
          throw new Error("trap");
        },
        getPrototypeOf() {
          throw new Error("trap");
        },
      },
    );
    const list = new Proxy([], {
      get() {
        throw new Error("list trap");
      },
    });
    expect(toTextOrImageContent([getter, proxy, { type: "text", text: "after" }])).toEqual([
      { type: "text", text: "[unreadable content block]" },
      { type: "text", text: "[unreadable content block]" },
      { type: "text", text: "after" },
    ]);
    expect(toTextOrImageContent(list)).toEqual([{ type: "text", text: "[unreadable content block]" }]);
    expect(toTextOrImageContent([], { structuredContent: proxy })).toHaveLength(1);
  });

  it("passes only images a provider takes: SVG, bytes that are not the type, and oversized data become text", () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString("base64");
    const notPng = Buffer.from("this is not a png at all").toString("base64");
    const out = toTextOrImageContent([
      { type: "image", data: png(64), mimeType: "image/png" },
      { type: "image", data: svg, mimeType: "image/svg+xml" },
      { type: "image", data: notPng, mimeType: "image/png" },
      { type: "image", data: png(6 * 1024 * 1024), mimeType: "image/png" },
    ]);
    expect(out[0]).toEqual({ type: "image", data: png(64), mimeType: "image/png" });
    expect(out.slice(1)).toEqual([
      { type: "text", text: expect.stringMatching(/^\[image image\/svg\+xml not shown: not an image type/) },
      { type: "text", text: "[image image/png not shown: its bytes are not image/png]" },
      {
        type: "text",
        text: expect.stringMatching(
          /^\[image image\/png not shown: 6291456 bytes, over the 5242880-byte limit\]$/,
        ),
      },
    ]);
    expect(
      toTextOrImageContent([{ type: "image", data: png(2048), mimeType: "image/png" }], {
        maxImageBytes: 1024,
      })[0]?.type,
    ).toBe("text");
  });
});
