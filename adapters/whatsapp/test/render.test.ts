/**
 * The renderer, read back through the emulator's decoder (what the WhatsApp client shows):
 * WhatsApp's own markup, links showing their URL, headings bold, literal markers literal.
 */
import { parseMarkdown } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { whatsappRenderer } from "../src/render/renderer.js";
import { decodeMarkup } from "../src/testing/index.js";

const render = (markdown: string) => whatsappRenderer.render(parseMarkdown(markdown));
const shown = (markdown: string) => decodeMarkup(render(markdown));
const words = (markdown: string, kind: string) => {
  const { text, formatting } = shown(markdown);
  return formatting.filter((f) => f.kind === kind).map((f) => text.slice(f.offset, f.offset + f.length));
};

describe("WhatsApp renderer", () => {
  it("writes WhatsApp's markup for bold, italic, strike, inline code and monospace blocks", () => {
    expect(render("**b** _i_ ~~s~~ `c`")).toBe("*b* _i_ ~s~ `c`");
    expect(render("```js\nconst a = 1;\n```")).toBe("```const a = 1;```");
    expect(words("**bold** and _it_", "bold")).toEqual(["bold"]);
    expect(words("```\nline 1\n  line 2\n```", "pre")).toEqual(["line 1\n  line 2"]);
  });

  it("leaves a bare web address as written, so the client links it whole (no zero-width space in it)", () => {
    const url = "https://example.com/~user/_notes/*x";
    expect(render(`see ${url}, _then_`)).toBe(`see ${url}, _then_`);
    expect(shown(`see ${url}, _then_`).formatting).toEqual([
      { kind: "link", offset: 4, length: url.length, url },
      { kind: "italic", offset: url.length + 6, length: 4 },
    ]);
  });

  it("shows a link's label, then its URL, which the client links; the URL alone when they are the same", () => {
    expect(render("[the docs](https://example.com/docs)")).toBe("the docs (https://example.com/docs)");
    expect(render("<https://example.com>")).toBe("https://example.com");
    expect(shown("see [docs](https://example.com/a_b_c).").formatting).toEqual([
      { kind: "link", offset: 10, length: 25, url: "https://example.com/a_b_c" },
    ]);
    expect(render("[x](javascript:alert(1))")).toBe("x");
  });

  it("makes headings bold lines, quotes `> ` lines, lists `- ` and `1. ` lines, nested ones indented", () => {
    expect(render("# Title\n\ntext")).toBe("*Title*\n\ntext");
    expect(render("> quoted\n> lines")).toBe("> quoted\n> lines");
    expect(render("- a\n  - b\n3. c")).toBe("- a\n    - b\n\n3. c");
    expect(shown("> quoted").formatting).toEqual([{ kind: "quote", offset: 0, length: 6 }]);
  });

  it("keeps literal markers literal: nothing the user typed turns into formatting", () => {
    for (const literal of [
      "\\*not bold\\*",
      "\\_not italic\\_",
      "\\~not struck\\~",
      "\\`not code\\`",
      "2 * 3 * 4",
      "snake_case_name",
    ]) {
      const decoded = shown(literal);
      expect(decoded.formatting, literal).toEqual([]);
      expect(decoded.text, literal).toBe(literal.replace(/\\/g, ""));
    }
    expect(shown("\\> not a quote").formatting).toEqual([]);
  });

  it("keeps a fence inside a code block inside it", () => {
    const decoded = shown("````\na\n```\nb\n````");
    expect(decoded.text).toBe("a\n```\nb");
    expect(decoded.formatting).toEqual([{ kind: "pre", offset: 0, length: 7 }]);
  });

  it("separates a styled word from the word it touches so the client still styles it", () => {
    expect(words("un**believ**able", "bold")).toEqual(["believ"]);
    expect(shown("un**believ**able").text).toBe("unbelievable");
  });

  it("measures UTF-16 units of the rendered body", () => {
    expect(whatsappRenderer.measure("😀*a*")).toBe(5);
  });
});
