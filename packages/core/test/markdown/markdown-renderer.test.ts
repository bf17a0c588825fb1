import type { Root } from "mdast";
import { describe, expect, it } from "vitest";
import { createMarkdownRenderer } from "../../src/markdown/markdown-renderer.js";
import { parseMarkdown } from "../../src/markdown/parse-markdown.js";
import { parseReplyMarkdown } from "../../src/markdown/parse-reply-markdown.js";
import { decodeMarkdown } from "../../src/testing/index.js";

const commonMark = createMarkdownRenderer();

/** Pieces of Markdown whose meaning survives a round trip (images and unsafe links are judged, so left out). */
const ATOMS = [
  "*",
  "**",
  "_",
  "__",
  "~~",
  "`",
  "``",
  "\n",
  "\n\n",
  "> ",
  "- ",
  "* ",
  "1. ",
  "2) ",
  "# ",
  "### ",
  "[a](https://x.example/(z))",
  "<https://a.example>",
  "\\",
  "a",
  "word ",
  " ",
  "  \n",
  "<b>",
  "&amp;",
  "---",
  "***",
  "\n===\n",
  "+ ",
  "|",
  "é",
  "💥",
  "```js\nx\n```",
  "~~~\nx ``` y\n~~~",
  "\t",
];

/** A deterministic pseudo-random sequence (no seed to replay: the inputs are the same every run). */
function inputs(count: number): string[] {
  let state = 7;
  const next = () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + (next() % 12) }, () => ATOMS[next() % ATOMS.length]).join(""),
  );
}

describe("createMarkdownRenderer (Markdown dialects)", () => {
  it("writes literal text so a CommonMark client shows it as written, unformatted", () => {
    const literal =
      "*a* _b_ [c](https://d.example) `e` <i>x</i> &amp; ~~s~~ ||p||\n# h\n- g\n+ g\n1. h\n2) h\n> q\n===";
    const tree: Root = {
      type: "root",
      children: [{ type: "paragraph", children: [{ type: "text", value: literal }] }],
    };
    const shown = decodeMarkdown(commonMark(tree));
    expect(shown.text).toBe(literal);
    expect(shown.formatting).toEqual([]);
  });

  it("renders what a CommonMark client shows as the source shows it (2,000 generated replies)", () => {
    for (const source of inputs(2000)) {
      const rendered = commonMark(parseMarkdown(source));
      const [before, after] = [decodeMarkdown(source), decodeMarkdown(rendered)];
      // Spaces at a line's end are not shown.
      const visible = (text: string) => text.replace(/[ \t]+$/gm, "");
      expect(
        { text: visible(after.text), kinds: after.formatting.map((f) => f.kind) },
        JSON.stringify(source),
      ).toEqual({
        text: visible(before.text),
        kinds: before.formatting.map((f) => f.kind),
      });
    }
  });

  it("writes a dialect's spoilers, flat quotes and plain neighbours", () => {
    const dialect = createMarkdownRenderer({ spoiler: "||", flatQuotes: true, plainNeighbours: true });
    const source = "||secret|| *a***b**\n\n> one\n>\n> > two\n\n- x\n\n  y\n\n* z";
    expect(dialect(parseReplyMarkdown(source))).toBe(
      "||secret|| *a***b**\n\n> one\n> two\n\n- x\n  y\n\n- z",
    );
    expect(commonMark(parseReplyMarkdown(source))).toBe(
      "secret *a***b**\n\n> one\n> \n> > two\n\n- x\n  \n  y\n\n* z",
    );
  });
});
