import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { directTree } from "../../src/markdown/direct-tree.js";
import { createMarkdownParser } from "../../src/markdown/markdown-it.js";
import { replyTree } from "../../src/markdown/parse-reply-markdown.js";
import { toMdast } from "../../src/markdown/to-mdast.js";

const parser = createMarkdownParser(false);
/** markdown-it's tree without positions: what `replyTree` returns without the direct parser. */
const parsed = (text: string) => toMdast(parser.parse(text, {}), text, false);

/**
 * Reply pieces: prose, emphasis runs of every length mod 3 beside letters, punctuation and
 * Unicode, code spans, breaks and blank lines, plain links and every near miss of one
 * (images, titles, blanks, nested brackets, missing parts, references), ATX headings and
 * their near misses (seven `#`, no space, closing runs), fences (info strings, longer and
 * indented closers, any syntax inside), what starts a block at a line's start, and the
 * characters left to markdown-it (other syntax, whitespace it trims).
 */
const piece = fc.constantFrom(
  "a",
  "word ",
  "é",
  "中",
  "😀",
  " ",
  "  ",
  "*",
  "**",
  "***",
  "_",
  "__",
  "`",
  "``",
  "```",
  ".",
  ",",
  "!",
  "(",
  ")",
  ":",
  "«",
  "\n",
  "\n\n",
  "\n\n\n",
  "  \n",
  " \n",
  "[",
  "]",
  "](",
  "[a](b)",
  "[link](https://example.com/x)",
  "[*a*](u)",
  "[a *b](u)",
  "[a\nb](u)",
  "[ a ](u)",
  "[a](u)*",
  "*[a](u)",
  "[a](b]c)",
  "[a](b*c)",
  "[a](b`c)",
  "[a](<b>)",
  '[a](b "t")',
  "[a]( b)",
  "[a](b(c))",
  "[a]()",
  "[](b)",
  "[a][b]",
  "[a]: b",
  "[a]",
  "[[a](b)](c)",
  "[a `b`](c)",
  "![a](b)",
  "!",
  "# ",
  "\n# ",
  "\n## ",
  "\n###### ",
  "\n####### ",
  "\n#",
  "#a",
  " #",
  " ##",
  "- ",
  "* ",
  "+ ",
  "> ",
  "1. ",
  "2) ",
  "===",
  "---",
  "***\n",
  "    ",
  "\n```\n",
  "\n```js\n",
  "\n```js title=x \n",
  "\n````\n",
  "\n```\t\n",
  "\n``` `\n",
  "\n```\\x\n",
  "\n  ```\n",
  "\n    ```\n",
  "<b>&amp;</b> | \\",
  "\n```\ncode\n```\n",
  "\n```py  x  y \n<b>&amp;</b> | \\ *a*\n\n  [b](c)\n```\n",
  "\n````\n```\n````  \n",
  "\n```\n\n```",
  "10. ",
  "1234567890. ",
  "_ _ _\n",
  "\t",
  "\r",
  "\r\n",
  "\0",
  "\u00a0",
  "\u2028",
  "\u3000",
  "\ufeff",
  "\\",
  "<",
  "&",
  "~",
  "|",
);
const replies = fc.array(piece, { maxLength: 50 }).map((pieces) => pieces.join(""));

/** A fixed seed (the same inputs every run) and a fresh one (printed by fast-check on a failure). */
const seeds = [{ seed: 20261207 }, {}];

describe("directTree", () => {
  it.each(seeds)("is markdown-it's tree whenever it answers (%o)", (seed) => {
    let answered = 0;
    let headings = 0;
    let links = 0;
    let code = 0;
    fc.assert(
      fc.property(replies, (text) => {
        const tree = directTree(text);
        if (tree === undefined) return;
        answered += 1;
        if (tree.children.some((node) => node.type === "heading")) headings += 1;
        if (JSON.stringify(tree).includes('"type":"link"')) links += 1;
        if (tree.children.some((node) => node.type === "code")) code += 1;
        expect(tree).toEqual(parsed(text));
      }),
      { numRuns: 4000, ...seed },
    );
    expect({ answered, headings, links, code }).toEqual({
      answered: expect.toSatisfy((n: number) => n > 500),
      headings: expect.toSatisfy((n: number) => n > 50),
      links: expect.toSatisfy((n: number) => n > 100),
      code: expect.toSatisfy((n: number) => n > 30),
    });
  });

  it("answers for headings and paragraphs of emphasis, code and plain links, and replyTree takes it", () => {
    const reply =
      "## A *heading* with a [link](u) ##  \nHere is **bold**, _italic_, `code` and a [link](https://example.com/x?a=1#c).\nA second line  \nafter a hard break.\n\n\nA [*styled* link](https://example.com/y) ends it.  ";
    const tree = directTree(reply);
    expect(tree).toEqual(parsed(reply));
    expect(tree?.children.map((node) => node.type)).toEqual(["heading", "paragraph", "paragraph"]);
    expect(replyTree(reply)).toEqual(tree);
  });

  it.each([
    ["an image", "a ![b](c)"],
    ["a link with a title", '[a](b "t")'],
    ["a link with a blank destination", "[a]( b)"],
    ["a reference link", "[a][b]"],
    ["a bracket as text", "a [b] c"],
    ["a nested bracket", "[[a](b)](c)"],
    ["a code span in a link's text", "[a `b`](c)"],
    ["a list", "intro\n- item"],
    ["seven #", "####### Title"],
    ["a # starting a line's word", "#hashtag"],
    ["a fence never closed", "```\ncode"],
    ["a fence closed by an indented one", "```\ncode\n  ```\nb\n```"],
    ["a thematic break", "a\n\n***"],
    ["indented code", "a\n\n    code"],
    ["an escape", "a \\* b"],
    ["an entity", "a &amp; b"],
    ["raw HTML", "a <b>c</b>"],
    ["strikethrough", "~~a~~"],
    ["a spoiler", "||x||"],
    ["a tab", "a\tb"],
  ])("leaves %s to markdown-it", (_name, text) => {
    expect(directTree(text)).toBeUndefined();
  });
});
