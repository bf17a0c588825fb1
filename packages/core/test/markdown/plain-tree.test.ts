import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMarkdownParser } from "../../src/markdown/markdown-it.js";
import { plainTree } from "../../src/markdown/plain-tree.js";
import { toMdast } from "../../src/markdown/to-mdast.js";
import { agreesWithParser } from "./support/agrees-with-parser.js";

const parser = createMarkdownParser(true);
/** The parser's tree without positions: what `replyTree` returned before the shortcut. */
const parsed = (text: string) => toMdast(parser.parse(text, {}), text, false);

// Prose characters, every character that can start Markdown syntax, and the whitespace
// the parser trims or treats apart.
const alphabet = fc.constantFrom(
  ..."aZ9 0 1 .,;:'\"?!()/%$@^{}#>=+-–—…é😀\n\n\n".split(""),
  ..."\\`*_[]<&|~".split(""),
  "\t",
  "\r",
  "\0",
  "\u00a0",
  "\u2028",
  "\u3000",
  "1.",
  "2)",
  "    ",
  "  \n",
  "\n\n",
  "---",
  "===",
  "![x](y)",
  "&amp;",
);
// Prose with only the characters that are syntax at a line's edge, so the shortcut is tried often.
const edgy = fc.constantFrom(..."ab 1 9 . ) - + # > = \n \n\n".split(" "), " ", "1.", "2)", "  \n");
const joined = (unit: fc.Arbitrary<string>) =>
  fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(""));
const texts = fc.oneof(joined(alphabet), joined(edgy));

describe("plainTree", () => {
  it("is the parser's tree whenever it answers (fuzzed over prose and every syntax character)", () => {
    expect(agreesWithParser(plainTree, parsed, texts, { numRuns: 5000 })).toBeGreaterThan(500);
  });

  it("answers for ordinary prose, which then never reaches the parser", () => {
    const prose =
      "Hello! It's 5 o'clock, 100% sure: see (this) {x} @me for $5.\nWell-known a > b, a = b, #1?\n\n\nSecond paragraph – done…";
    expect(plainTree(prose)).toEqual(parsed(prose));
    expect(plainTree(prose)?.children).toHaveLength(2);
    expect(plainTree("")).toEqual({ type: "root", children: [] });
  });

  it.each([
    ["emphasis", "a *b* c"],
    ["a list", "intro\n- item"],
    ["an ordered list", "1. first"],
    ["a heading", "# Title"],
    ["a setext underline", "Title\n="],
    ["a quote", "> quoted"],
    ["indented code", "    code"],
    ["a hard break", "a  \nb"],
    ["an entity", "a &amp; b"],
    ["a spoiler", "||x||"],
    ["a non-breaking space", "\u00a0a"],
  ])("leaves %s to the parser", (_name, text) => {
    expect(plainTree(text)).toBeUndefined();
  });
});
