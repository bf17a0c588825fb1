import fc from "fast-check";
import type { Root, RootContent } from "mdast";
import { describe, expect, it } from "vitest";
import { parseReplyMarkdown } from "../../src/markdown/parse-reply-markdown.js";
import { splitText } from "../../src/plan/split-text.js";
import { htmlRenderer, isBalanced, visibleOfHtml } from "../markdown/support/html-renderer.js";
import { markdownArbitrary } from "../markdown/support/markdown-arbitrary.js";

const squash = (text: string): string => text.replace(/\s+/g, "");

describe("splitText", () => {
  it("keeps a text that fits in one chunk, rendered once", () => {
    let renders = 0;
    const renderer = {
      ...htmlRenderer,
      render: (tree: Parameters<typeof htmlRenderer.render>[0]) => {
        renders += 1;
        return htmlRenderer.render(tree);
      },
    };
    const chunks = splitText(parseReplyMarkdown("Hello **world**"), renderer, 100);
    expect(chunks.map((c) => c.rendered)).toEqual(["Hello <b>world</b>"]);
    expect(renders).toBe(1);
  });

  it("renders and measures in one walk with renderMeasured, never measuring rendered text", () => {
    const renderer = {
      ...htmlRenderer,
      measure: (): number => {
        throw new Error("measure must not be called when renderMeasured is present");
      },
      renderMeasured: (tree: Root) => {
        const text = htmlRenderer.render(tree);
        return { text, length: htmlRenderer.measure(text) };
      },
    };
    const tree = parseReplyMarkdown(
      `${"word ".repeat(30)}\n\n**${"bold ".repeat(30)}**\n\n${"x".repeat(90)}`,
    );
    const chunks = splitText(tree, renderer, 60);
    expect(chunks.map((c) => c.rendered)).toEqual(splitText(tree, htmlRenderer, 60).map((c) => c.rendered));
    expect(chunks.length).toBeGreaterThan(3);
  });

  describe("with a renderer that declares blockSeparator", () => {
    // Renders each top-level block on its own and joins the non-empty ones: the promise kept.
    const joined = (tree: Root): string =>
      tree.children
        .map((child) => htmlRenderer.render({ type: "root", children: [child] }))
        .filter((text) => text !== "")
        .join("\n\n");
    const plain = { ...htmlRenderer, render: joined };
    const declaring = (rendered: Root[] = []) => ({
      ...plain,
      blockSeparator: "\n\n",
      render: (tree: Root) => {
        rendered.push(tree);
        return joined(tree);
      },
    });

    it("renders each block once and joins the whole and the chunks from the pieces", () => {
      const rendered: Root[] = [];
      const tree = parseReplyMarkdown(
        Array.from({ length: 12 }, (_, i) => `Paragraph ${i} with **bold** & words`).join("\n\n"),
      );
      const chunks = splitText(tree, declaring(rendered), 120);
      expect(chunks.map((c) => c.rendered)).toEqual(splitText(tree, plain, 120).map((c) => c.rendered));
      expect(chunks.length).toBeGreaterThan(3);
      expect(rendered.map((root) => root.children.length)).toEqual(tree.children.map(() => 1));
    });

    it("counts the separator and leaves out blocks that render empty, as rendering does", () => {
      // `![](x)` renders empty here; "aaaa" + "\n\n" + "bbbb" is 10, one over the limit.
      const tree = parseReplyMarkdown("aaaa\n\n![](x)\n\nbbbb");
      expect(splitText(tree, declaring(), 10).map((c) => c.rendered)).toEqual(["aaaa\n\nbbbb"]);
      expect(splitText(tree, declaring(), 9).map((c) => c.rendered)).toEqual(["aaaa", "bbbb"]);
      for (const limit of [9, 10])
        expect(splitText(tree, declaring(), limit)).toEqual(splitText(tree, plain, limit));
    });

    it("gives the same chunks as rendering every piece (property)", () => {
      fc.assert(
        fc.property(markdownArbitrary, fc.integer({ min: 20, max: 400 }), (markdown, limit) => {
          const tree = parseReplyMarkdown(markdown);
          const expected = splitText(tree, plain, limit);
          const chunks = splitText(tree, declaring(), limit);
          expect(chunks.map((c) => [c.rendered, c.flattened])).toEqual(
            expected.map((c) => [c.rendered, c.flattened]),
          );
          expect(chunks.map((c) => c.tree)).toEqual(expected.map((c) => c.tree));
        }),
        { numRuns: 150 },
      );
    });
  });

  it("returns no chunk for an empty text", () => {
    expect(splitText(parseReplyMarkdown(""), htmlRenderer, 10)).toEqual([]);
  });

  it("prefers paragraph, then line, then word boundaries", () => {
    const text = `${"a".repeat(30)}\n\n${"b".repeat(30)}`;
    expect(splitText(parseReplyMarkdown(text), htmlRenderer, 40).map((c) => c.rendered)).toEqual([
      "a".repeat(30),
      "b".repeat(30),
    ]);
    const lines = `${"c".repeat(25)}\n${"d".repeat(25)}`;
    expect(splitText(parseReplyMarkdown(lines), htmlRenderer, 40).map((c) => c.rendered.trim())).toEqual([
      "c".repeat(25),
      "d".repeat(25),
    ]);
    const words = "one two three four five six seven";
    const chunks = splitText(parseReplyMarkdown(words), htmlRenderer, 15).map((c) => c.rendered);
    expect(chunks.every((c) => c.length <= 15)).toBe(true);
    expect(chunks.join("")).toBe(words);
    expect(chunks.every((c) => !/\S$/.test(c) || words.endsWith(c))).toBe(true);
  });

  it("closes and reopens a split code block with its language", () => {
    const code = `\`\`\`python\n${Array.from({ length: 10 }, (_, i) => `print(${i})`).join("\n")}\n\`\`\``;
    const chunks = splitText(parseReplyMarkdown(code), htmlRenderer, 60).map((c) => c.rendered);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks)
      expect(chunk).toMatch(/^<pre lang="python">print\(\d\)(\nprint\(\d\))*<\/pre>$/);
  });

  it("keeps formatting on both sides of a cut and never cuts an escape", () => {
    const chunks = splitText(parseReplyMarkdown(`**${"x&y ".repeat(20).trim()}**`), htmlRenderer, 30).map(
      (c) => c.rendered,
    );
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(30);
      expect(chunk).toMatch(/^<b>.*<\/b>$/);
      expect(isBalanced(chunk)).toBe(true);
    }
  });

  it("continues the numbering of a split ordered list", () => {
    const chunks = splitText(
      parseReplyMarkdown("1. first item\n2. second item\n3. third item"),
      htmlRenderer,
      40,
    );
    const last = chunks.at(-1)?.tree.children[0];
    expect(last?.type === "list" && last.start).toBeGreaterThan(1);
  });

  it("flattens a piece whose formatting alone is over the limit, and keeps it within the limit", () => {
    const url = `https://example.com/${"p".repeat(150)}`;
    const chunks = splitText(parseReplyMarkdown(`see [docs](${url}) now`), htmlRenderer, 60);
    for (const chunk of chunks) expect(chunk.rendered.length).toBeLessThanOrEqual(60);
    expect(chunks.some((c) => c.flattened)).toBe(true);
    expect(squash(chunks.map((c) => visibleOfHtml(c.rendered)).join(""))).toBe(
      squash(`see docs (${url}) now`),
    );
  });

  it("never cuts a surrogate pair", () => {
    const chunks = splitText(parseReplyMarkdown("😀".repeat(40)), htmlRenderer, 11).map((c) => c.rendered);
    expect(chunks.join("")).toBe("😀".repeat(40));
    for (const chunk of chunks) expect(chunk).toMatch(/^(😀)+$/u);
  });

  it("respects the limit, preserves visible text and balances tags (property)", () => {
    fc.assert(
      fc.property(markdownArbitrary, fc.integer({ min: 90, max: 400 }), (markdown, limit) => {
        const tree = parseReplyMarkdown(markdown);
        const whole = visibleOfHtml(htmlRenderer.render(tree));
        const chunks = splitText(tree, htmlRenderer, limit);
        for (const chunk of chunks) {
          expect(htmlRenderer.measure(chunk.rendered)).toBeLessThanOrEqual(limit);
          expect(isBalanced(chunk.rendered)).toBe(true);
          expect(chunk.rendered).toBe(htmlRenderer.render(chunk.tree));
        }
        expect(squash(chunks.map((c) => visibleOfHtml(c.rendered)).join(""))).toBe(squash(whole));
      }),
      { numRuns: 60 },
    );
  });

  it("is near-linear: rendering work stays within a small multiple of the text", () => {
    const paragraph = (value: string): RootContent => ({
      type: "paragraph",
      children: [{ type: "text", value }],
    });
    const many: Root = {
      type: "root",
      children: Array.from({ length: 2000 }, (_, i) => paragraph(`Paragraph ${i} ${"word ".repeat(20)}`)),
    };
    const one: Root = { type: "root", children: [paragraph("word ".repeat(60_000))] };
    for (const tree of [many, one]) {
      let rendered = 0;
      const counting = {
        ...htmlRenderer,
        render: (node: Root) => {
          const out = htmlRenderer.render(node);
          rendered += out.length;
          return out;
        },
      };
      const whole = htmlRenderer.render(tree).length;
      expect(splitText(tree, counting, 4096).length).toBeGreaterThan(40);
      expect(rendered).toBeLessThan(whole * 8);
    }
  });
});
