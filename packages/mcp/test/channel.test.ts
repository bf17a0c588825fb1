import { conformanceMedia, fixtureSha256 } from "@outbox/conformance";
import { MediaError, parseMarkdown, toPlainText } from "@outbox/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeMarkdown } from "../src/conformance/index.js";
import { createMcpAdapter, renderMarkdown } from "../src/index.js";

/**
 * Text as a reader compares it: list markers at the start of a line (`• `, `3. `; an item
 * opening with a nested list shows two) are not the reply's text, spaces at the edges of a
 * line may differ (raw HTML blocks keep theirs) and a tight item's blocks have no gap. Applied
 * to both sides: a literal `1. ` the reply wrote is dropped from both.
 */
const shown = (text: string): string =>
  text
    .replace(/^ *(?:(?:• |\d+\. ) *)+/gm, "")
    .replace(/[ \t]+/g, " ")
    .replace(/^ | $/gm, "")
    .replace(/\n{2,}/g, "\n");

describe("the MCP channel's Markdown", () => {
  it("escapes text so a client shows it literally", () => {
    const source = "1. not a list \\<b>x\\</b> a\\_b\\_c 5 \\* 3 AT&T ~~done~~ `a``b`";
    const rendered = renderMarkdown(parseMarkdown(source));
    expect(decodeMarkdown(rendered).text).toBe(toPlainText(parseMarkdown(source), { markers: true }));
    expect(decodeMarkdown(rendered).formatting.map((f) => f.kind)).toEqual(["strike", "code"]);
  });

  it("decodes spans with UTF-16 offsets, links with their url, code blocks with their language", () => {
    const rendered = renderMarkdown(
      parseMarkdown("😀 **bold** [docs](https://example.com/a_(b))\n\n```ts\nlet a = 1;\n```"),
    );
    expect(decodeMarkdown(rendered)).toMatchObject({
      text: "😀 bold docs\n\nlet a = 1;",
      formatting: [
        { kind: "bold", offset: 3, length: 4 },
        { kind: "link", offset: 8, length: 4, url: "https://example.com/a_(b)" },
        { kind: "pre", offset: 14, length: 10, language: "ts" },
      ],
    });
  });

  it("property: what the client decodes is the reply's visible text", () => {
    // A random seed each run; a failure prints its seed and path, and SEED=<seed> PATH_IN_RUN=<path>
    // replays that very counterexample.
    const replay =
      process.env.SEED === undefined ? {} : { seed: Number(process.env.SEED), path: process.env.PATH_IN_RUN };
    const alphabet = fc.constantFrom(..."ab *_~`|[]()<>&\\#-+=!1.\n>".split(""));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const tree = parseMarkdown(chars.join(""));
        expect(shown(decodeMarkdown(renderMarkdown(tree)).text)).toBe(shown(toPlainText(tree)));
      }),
      { numRuns: Number(process.env.RUNS ?? 1000), ...replay },
    );
  });

  it("a list item holding only a list marker ('- -', found by the property) shows both markers and no text", () => {
    for (const [source, decoded, visible] of [
      ["- -", "• • ", ""],
      ["- - a", "• • a", "a"],
      ["1. - a", "1. • a", "a"],
      ["- 1\\. a", "• 1. a", "1. a"],
    ] as const) {
      const tree = parseMarkdown(source);
      expect(decodeMarkdown(renderMarkdown(tree)).text).toBe(decoded);
      expect(toPlainText(tree)).toBe(visible);
      expect(shown(decoded)).toBe(shown(visible));
    }
  });
});

describe("createMcpAdapter", () => {
  it("reply() returns the payload as a tool result with the receipt", async () => {
    const media = await conformanceMedia();
    const adapter = createMcpAdapter({ media: media.policy });
    const result = await adapter.reply({
      text: "Chart attached",
      mediaUrls: [media.url("png"), media.missingFile],
    });
    expect(result.isError).toBeUndefined();
    expect(result.content.map((b) => b.type)).toEqual(["image", "text", "text"]);
    expect(result.content[1]).toEqual({ type: "text", text: "Chart attached" });
    expect(result.content[2]).toMatchObject({
      type: "text",
      text: expect.stringMatching(/^Part 1 not delivered: /),
    });
    const { receipt, messages } = result.structuredContent as {
      receipt: { ok: boolean; failures: Array<{ code: string }> };
      messages: Array<{ kind: string; blocks: number }>;
    };
    expect(receipt.ok).toBe(false);
    expect(receipt.failures.map((f) => f.code)).toEqual(["media_not_found"]);
    expect(messages).toEqual([{ id: expect.any(String), kind: "image", blocks: 2 }]);
    const image = result.content[0];
    expect(image?.type === "image" && image.mimeType).toBe("image/png");
    expect(fixtureSha256("png")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reply() is a tool error when nothing could be delivered", async () => {
    const media = await conformanceMedia();
    const result = await createMcpAdapter({ media: media.policy }).reply({ mediaUrls: [media.outsideFile] });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain(media.outsideFileText);
  });

  it("a part that would pass the response limit fails in the receipt; nothing is dropped silently", async () => {
    const media = await conformanceMedia();
    const adapter = createMcpAdapter({ media: media.policy, maxResponseBytes: 1000 });
    const receipt = await adapter.send({ mediaUrls: [media.file("jpeg"), media.file("pdf")] }, { to: "c" });
    expect(receipt.messages.map((m) => m.kind)).toEqual(["image"]);
    expect(receipt.failures.map((f) => f.part)).toEqual([1]);
    expect(receipt.failures[0]?.error).toBeInstanceOf(MediaError);
    expect(receipt.failures[0]?.error.message).toMatch(/response size limit/);
    expect(adapter.take("c").content).toHaveLength(1);
    expect(adapter.take("c").content).toHaveLength(0);
  });
});
