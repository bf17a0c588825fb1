import { hostileMarkdown } from "@outbox/conformance";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { fastDelimiterScan } from "../../src/markdown/delimiter-scan.js";

function parsers(): [MarkdownIt, MarkdownIt] {
  const stock = new MarkdownIt("commonmark").enable("strikethrough");
  const fast = new MarkdownIt("commonmark").enable("strikethrough");
  fastDelimiterScan(fast);
  return [stock, fast];
}

/** Delimiters next to every kind of neighbour: ASCII and Unicode punctuation, symbols, spaces, surrogates. */
const piece = fc.constantFrom(
  "*",
  "**",
  "***",
  "_",
  "__",
  "~",
  "~~",
  "a",
  "é",
  " ",
  "\u00a0",
  "\u3000",
  "\n",
  ".",
  "!",
  "$",
  "`",
  "«",
  "»",
  "€",
  "—",
  "😀",
  "\ud83d",
  "\ude00",
  "中",
  "\\",
  "[",
  "](u)",
);
const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""));

describe("the fast delimiter scan", () => {
  const [stock, fast] = parsers();
  const same = (source: string): void => {
    expect(fast.parse(source, {})).toEqual(stock.parse(source, {}));
  };

  it("gives markdown-it's own tokens for delimiters beside any character", () => {
    fc.assert(
      fc.property(text, (source) => same(source)),
      { numRuns: 3000 },
    );
  });

  it.each(Object.keys(hostileMarkdown))("gives markdown-it's own tokens for 4 KB of %s", (family) => {
    same(hostileMarkdown[family as keyof typeof hostileMarkdown](4096));
  });

  it("asks the Unicode punctuation test about no ASCII neighbour", () => {
    // The slow test is markdown-it's `utils.isPunctChar`; counted, so the saving cannot regress.
    const md = new MarkdownIt("commonmark");
    let asked = 0;
    const isPunctChar = md.utils.isPunctChar;
    const counting = (ch: string): boolean => {
      asked += 1;
      return isPunctChar(ch);
    };
    Object.assign(md, { utils: { ...md.utils, isPunctChar: counting } });
    fastDelimiterScan(md);
    md.parse(`${"*a".repeat(1000)} *é* _«x»_`, {});
    expect(asked).toBe(4);
  });
});
