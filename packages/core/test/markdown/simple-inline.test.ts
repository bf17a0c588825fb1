import { cpuGrowth, type HostileFamilyName, hostileMarkdown } from "@outbox/conformance";
import fc from "fast-check";
import MarkdownIt, { type StateCore } from "markdown-it";
import { describe, expect, it } from "vitest";
import { createMarkdownParser } from "../../src/markdown/markdown-it.js";
import { parseReplyMarkdown, replyTree } from "../../src/markdown/parse-reply-markdown.js";
import { isSimpleInline } from "../../src/markdown/simple-inline.js";
import { toMdast } from "../../src/markdown/to-mdast.js";
import { markdownArbitrary } from "./support/markdown-arbitrary.js";

/** markdown-it's own `inline` core rule, which parses every inline token into tokens. */
const stockInline = (
  new MarkdownIt().core.ruler as unknown as {
    __rules__: Array<{ name: string; fn: (state: StateCore) => void }>;
  }
).__rules__.find((rule) => rule.name === "inline")?.fn as (state: StateCore) => void;

/** The reply parser as it was: markdown-it's inline rules for all content, then text_join, then the tokens converted. */
function tokenParser(spoilers: boolean): MarkdownIt {
  const md = createMarkdownParser(spoilers);
  md.core.ruler.at("inline", stockInline);
  md.core.ruler.enable("text_join");
  return md;
}
const throughTokens = { spoilers: tokenParser(true), plain: tokenParser(false) };

/** The tree through markdown-it's tokens, with or without positions. */
function tokenTree(text: string, positions: boolean) {
  const md = text.includes("||") ? throughTokens.spoilers : throughTokens.plain;
  return toMdast(md.parse(text, {}), text, positions);
}

function expectSame(text: string): void {
  expect(parseReplyMarkdown(text)).toEqual(tokenTree(text, true));
  expect(replyTree(text)).toEqual(tokenTree(text, false));
}

/**
 * Inline soup: markers in runs of every length mod 3 beside letters, Unicode punctuation,
 * spaces, surrogates and line breaks; backtick runs; hard-break spaces; block markers; and,
 * now and then, syntax the direct parser leaves to markdown-it (the paragraph then goes there).
 */
const piece = fc.constantFrom(
  "*",
  "**",
  "***",
  "****",
  "_",
  "__",
  "___",
  "`",
  "``",
  "```",
  "a",
  "bc",
  "é",
  "中",
  "😀",
  "\ud83d",
  "\ude00",
  " ",
  "  ",
  "   ",
  "\t",
  "\u00a0",
  "\u3000",
  "\n",
  "  \n",
  " \n",
  "\t\n",
  "\n\n",
  ".",
  "!",
  "(",
  "«",
  "»",
  "—",
  "#",
  "# ",
  "- ",
  "> ",
  "1. ",
  "    ",
  "===",
  "---",
);
const rare = fc.constantFrom("[", "](u)", "\\", "\\*", "~~", "||", "&amp;", "<b>", "|");
const simpleSoup = fc.array(piece, { maxLength: 60 }).map((pieces) => pieces.join(""));
const mixedSoup = fc
  .array(fc.oneof({ weight: 12, arbitrary: piece }, { weight: 1, arbitrary: rare }), { maxLength: 60 })
  .map((pieces) => pieces.join(""));

/** A fixed seed (the same inputs every run) and a fresh one (printed by fast-check on a failure). */
const seeds = [{ seed: 20261128 }, {}];

describe("the direct parser of simple inline content", () => {
  it("is used for text, emphasis, code spans and breaks only", () => {
    const md = createMarkdownParser(false);
    const inline = (text: string) => md.parse(text, {}).find((token) => token.type === "inline");
    expect(inline("*a* __b__ `c`\nd  \ne")?.children).toBeNull();
    for (const text of ["[a](b)", "a\\*", "&amp;", "<b>", "~~a~~", "a || b"]) {
      expect(isSimpleInline(text)).toBe(false);
      expect(inline(text)?.children).not.toBeNull();
    }
  });

  it.each(seeds)("builds markdown-it's tree from generated inline soup (%o)", (seed) => {
    fc.assert(
      fc.property(simpleSoup, (text) => expectSame(text)),
      { numRuns: 3000, ...seed },
    );
  });

  it.each(seeds)("builds markdown-it's tree where simple and other paragraphs mix (%o)", (seed) => {
    fc.assert(
      fc.property(mixedSoup, (text) => expectSame(text)),
      { numRuns: 2000, ...seed },
    );
  });

  it.each(seeds)("builds markdown-it's tree from generated reply Markdown (%o)", (seed) => {
    fc.assert(
      fc.property(markdownArbitrary, (text) => expectSame(text)),
      { numRuns: 500, ...seed },
    );
  });

  it.each(
    (Object.keys(hostileMarkdown) as HostileFamilyName[]).flatMap((family) =>
      [1000, 4097, 16_384].map((size) => [family, size] as const),
    ),
  )("builds markdown-it's tree from %s at %i characters", (family, size) => {
    expectSame(hostileMarkdown[family](size));
  });
});

describe("the direct parser's work", () => {
  // Linear in the content, on the shapes that give the pairing the most to do (openers that
  // never close, two markers alternating, openers in a link's text), on link-dense
  // paragraphs, on brackets that are never a link (the scan for a link text's end stops at
  // the first one), on backticks that open a code span in every paragraph but close none,
  // on fences (many, or one never closed), and on lists of many items (tight, numbered,
  // loose). Measured over 8× the text, the least of five rounds (a shared machine's load
  // spikes), with margin: a linear parse stays near 1, a quadratic one reaches 2.
  const inputs: Record<string, (size: number) => string> = {
    "openers only": (size) => "*a ".repeat(Math.floor(size / 3)),
    "alternating markers": hostileMarkdown["alternating markers"],
    "emphasis in links": (size) => `[${"*a ".repeat(Math.floor(size / 3))}](u)`,
    "links in one paragraph": (size) => "a [*b*](https://c.d/e) f ".repeat(Math.floor(size / 25)),
    "a link per paragraph": (size) => "[a](b)\n\n".repeat(Math.floor(size / 8)),
    "unclosed brackets": (size) => `${"[a](b ".repeat(Math.floor(size / 6))}[`,
    "unclosed code spans": (size) => "a ` b\n\n".repeat(Math.floor(size / 7)),
    "fenced code blocks": (size) => "```js\na <b> *c*\n```\n".repeat(Math.floor(size / 21)),
    "a fence never closed": (size) => `\`\`\`\n${"a `` *b*\n".repeat(Math.floor(size / 10))}`,
    "bullet list items": (size) => "- a *b* `c` [d](e)\n".repeat(Math.floor(size / 20)),
    "ordered list items": (size) =>
      Array.from({ length: Math.floor(size / 16) }, (_, i) => `${i + 1}. a **b** c`).join("\n"),
    "loose list items": (size) => "- a *b\n\n".repeat(Math.floor(size / 8)),
  };
  it.each(Object.keys(inputs))("grows linearly with the text: %s", (name) => {
    const make = inputs[name] as (size: number) => string;
    const texts = new Map<number, string>();
    const growth = cpuGrowth(
      (size) => {
        let text = texts.get(size);
        if (text === undefined) {
          text = make(size);
          texts.set(size, text);
        }
        replyTree(text);
      },
      16 * 1024,
      8,
      5,
    );
    expect(growth.exponent, JSON.stringify(growth)).toBeLessThan(1.45);
  });
});
