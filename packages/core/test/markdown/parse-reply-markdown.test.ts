import fc from "fast-check";
import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import { createMarkdownParser } from "../../src/markdown/markdown-it.js";
import { parseMarkdown } from "../../src/markdown/parse-markdown.js";
import { parseReplyMarkdown, replyTree } from "../../src/markdown/parse-reply-markdown.js";
import { createPlainRenderer, toPlainText } from "../../src/markdown/plain-text.js";
import { markdownArbitrary } from "./support/markdown-arbitrary.js";

const types = (tree: Root): unknown =>
  JSON.parse(JSON.stringify(tree, (key, value) => (key === "position" ? undefined : value)));

describe("parseReplyMarkdown: spoilers", () => {
  it("text without || gets the same tokens with or without the spoiler rules (the fast path is exact)", () => {
    const spoilers = createMarkdownParser(true);
    const plain = createMarkdownParser(false);
    const lonePipes = fc.constantFrom(
      "|",
      "a | b",
      "|x|",
      "`|`",
      "\\|",
      "&#124;&#124;",
      "[|](https://e.x/|)",
    );
    fc.assert(
      fc.property(markdownArbitrary, fc.array(lonePipes, { maxLength: 4 }), (markdown, pipes) => {
        const text = `${markdown} ${pipes.join(" ")}`.replaceAll("||", "|");
        expect(text.includes("||")).toBe(false);
        expect(JSON.stringify(plain.parse(text, {}))).toBe(JSON.stringify(spoilers.parse(text, {})));
      }),
      { numRuns: 300 },
    );
  });

  it("wraps ||text|| in a spoiler node, across formatting", () => {
    const paragraph = parseReplyMarkdown("a ||secret **bold**|| b").children[0];
    expect(types({ type: "root", children: paragraph ? [paragraph] : [] })).toEqual({
      type: "root",
      children: [
        {
          type: "paragraph",
          children: [
            { type: "text", value: "a " },
            {
              type: "spoiler",
              children: [
                { type: "text", value: "secret " },
                { type: "strong", children: [{ type: "text", value: "bold" }] },
              ],
            },
            { type: "text", value: " b" },
          ],
        },
      ],
    });
  });

  it("leaves unpaired, empty, escaped and code delimiters alone", () => {
    expect(toPlainText(parseReplyMarkdown("a || b"))).toBe("a || b");
    expect(parseReplyMarkdown("a |||| b").children[0]).toMatchObject({
      children: [{ type: "text", value: "a |||| b" }],
    });
    expect(JSON.stringify(parseReplyMarkdown("\\|\\|x\\|\\|"))).not.toContain("spoiler");
    expect(JSON.stringify(parseReplyMarkdown("`||x||` and\n\n```\n||y||\n```"))).not.toContain("spoiler");
  });

  it("pairs delimiters left to right, leaving a trailing odd one as text", () => {
    const tree = parseReplyMarkdown("||a|| ||b|| ||c");
    const kinds = (tree.children[0] as { children: Array<{ type: string }> }).children.map((c) => c.type);
    expect(kinds).toEqual(["spoiler", "text", "spoiler", "text"]);
    expect(toPlainText(tree)).toBe("a b ||c");
  });
});

describe("parseReplyMarkdown: spoilers are inline syntax", () => {
  const kinds = (text: string): unknown => {
    const paragraph = parseReplyMarkdown(text).children[0];
    return paragraph && "children" in paragraph ? paragraph.children.map((c) => c.type) : [];
  };

  it("never reach into a link destination or a code span, and nest inside link text", () => {
    expect(kinds("||a [b](https://e.x/||) c||")).toEqual(["spoiler"]);
    expect(JSON.stringify(parseReplyMarkdown("[x](https://e.x/||y||)"))).not.toContain("spoiler");
    expect(kinds("||a `b||` c")).toEqual(["text", "inlineCode", "text"]);
    expect(kinds("[||hidden||](https://e.x)")).toEqual(["link"]);
    expect(JSON.stringify(parseReplyMarkdown("[||hidden||](https://e.x)"))).toContain('"spoiler"');
  });

  it("nest properly with emphasis and keep odd pipes as text", () => {
    expect(kinds("**a ||b** c||")).toEqual(["strong", "text"]);
    expect(toPlainText(parseReplyMarkdown("||a|||"))).toBe("a|");
    expect(kinds("|||a||")).toEqual(["spoiler"]);
    expect(toPlainText(parseReplyMarkdown("a | b || c"))).toBe("a | b || c");
  });

  it("is parseMarkdown's tree when the text has no `||`", () => {
    fc.assert(
      fc.property(markdownArbitrary, (text) => {
        const plain = text.replaceAll("||", "");
        expect(parseReplyMarkdown(plain)).toEqual(parseMarkdown(plain));
      }),
      { numRuns: 100 },
    );
  });
});

describe("line endings and NUL", () => {
  it("reads \\r\\n and \\r as \\n and NUL as U+FFFD, in text and in code", () => {
    const tree = replyTree("a\r\nb\rc\0d\r\n\r\n`x\0`\n\n```\r\ny\r\n```");
    expect(tree.children).toEqual([
      { type: "paragraph", children: [{ type: "text", value: "a\nb\nc\uFFFDd" }] },
      { type: "paragraph", children: [{ type: "inlineCode", value: "x\uFFFD" }] },
      { type: "code", lang: null, meta: null, value: "y" },
    ]);
  });
});

describe("replyTree (the delivery path's tree)", () => {
  const hasPosition = (node: object): boolean =>
    "position" in node || ("children" in node && (node.children as object[]).some(hasPosition));
  // Quotes whose trailing `>` lines decide where they end, so whether a list is spread.
  const quotes = fc.constantFrom(
    "> a\n>\n>",
    "- > a\n  >\n\n- b",
    "> - a\n>\n> - b\n\n>",
    "1. x\n   > q\n   >\n2. y",
  );

  it("is parseReplyMarkdown's tree without positions", () => {
    fc.assert(
      fc.property(markdownArbitrary, fc.array(quotes, { maxLength: 3 }), (markdown, extra) => {
        const text = [markdown, ...extra].join("\n\n");
        const tree = replyTree(text);
        expect(hasPosition(tree)).toBe(false);
        expect(tree).toEqual(types(parseReplyMarkdown(text)));
      }),
      { numRuns: 200 },
    );
  });

  it("reads a quote's trailing `>` lines even without positions (they decide a list's spread)", () => {
    // Without them the first item would end on line 1, and the gap before `- b` would make the list spread.
    expect(replyTree("- > a\n  >\n- b").children[0]).toMatchObject({ type: "list", spread: false });
    expect(replyTree("- > a\n  >\n\n- b").children[0]).toMatchObject({ type: "list", spread: true });
  });
});

describe("parseReplyMarkdown: references", () => {
  it("turns reference links and images into plain ones and drops definitions", () => {
    const tree = parseReplyMarkdown(
      "see [docs][d] and ![logo][l]\n\n[d]: https://e.x/docs\n[l]: https://e.x/l.png",
    );
    expect(tree.children).toHaveLength(1);
    expect(tree.children[0]).toMatchObject({
      children: [
        { type: "text" },
        { type: "link", url: "https://e.x/docs", children: [{ type: "text", value: "docs" }] },
        { type: "text" },
        { type: "image", url: "https://e.x/l.png", alt: "logo" },
      ],
    });
  });
});

describe("plain text", () => {
  const tree = parseReplyMarkdown(
    "# Title\n\n- one\n- two\n\n3. x\n4. y\n\n> quoted\n\n[site](https://e.x) `code`\n\n---",
  );

  it("extracts visible text without markers", () => {
    expect(toPlainText(tree)).toBe("Title\n\none\ntwo\n\nx\ny\n\nquoted\n\nsite code\n\n");
  });

  it("renders readable plain text with markers", () => {
    const renderer = createPlainRenderer();
    expect(renderer.render(tree)).toBe(
      "Title\n\n- one\n- two\n\n3. x\n4. y\n\n> quoted\n\nsite (https://e.x) code\n\n———",
    );
    expect(renderer.measure("😀")).toBe(2);
    expect(createPlainRenderer({ measure: (s) => [...s].length }).measure("😀")).toBe(1);
  });
});
