import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { directTree } from "../../src/markdown/direct-tree.js";
import { createMarkdownParser } from "../../src/markdown/markdown-it.js";
import { replyTree } from "../../src/markdown/parse-reply-markdown.js";
import { toMdast } from "../../src/markdown/to-mdast.js";
import { agreesWithParser } from "./support/agrees-with-parser.js";

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

/**
 * What starts a line of a list-shaped reply: mostly an item of some marker (numbers at 1,
 * past it, zero-padded, of nine digits), else what may come between, interrupt or continue
 * items (headings, fences, text, emphasis at a line's start), else a near miss
 * (no content, a tab, a space too many, ten digits, a thematic break or setext underline, a
 * block or a nested list as an item's content, an indented line).
 */
const lineStart = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "- ",
      "- ",
      "- ",
      "- ",
      "* ",
      "+ ",
      "1. ",
      "1. ",
      "2. ",
      "1) ",
      "3) ",
      "01. ",
      "123456789. ",
    ),
  },
  { weight: 3, arbitrary: fc.constantFrom("# ", "## ", "a ", "*a* ", "```\n```") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "-  ",
      "-    ",
      "-     ",
      "-",
      "*",
      "-\t",
      "1.\t",
      "1234567890. ",
      "- - -",
      "* * *",
      "---",
      "***",
      "===",
      "- # ",
      "- > ",
      "- - ",
      "- * ",
      "- 1. ",
      "- ```",
      "  - ",
      "   ",
      "> ",
    ),
  },
);
/** Inline content for an item or a line: words, emphasis, code spans, links, and now and then any piece. */
const lineContent = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("a", "word ", " ", "*", "**", "_", "`", "[a](b)", "é") },
  { weight: 1, arbitrary: piece },
);
/** Lines of a list-shaped reply, two in nine blank. */
const listReplies = fc
  .array(
    fc.oneof(
      { weight: 2, arbitrary: fc.constant("") },
      {
        weight: 7,
        arbitrary: fc
          .tuple(lineStart, fc.array(lineContent, { minLength: 1, maxLength: 5 }))
          .map(([start, content]) => start + content.join("")),
      },
    ),
    { maxLength: 10 },
  )
  .map((lines) => lines.join("\n"));

/** A fixed seed (the same inputs every run) and a fresh one (printed by fast-check on a failure). */
const seeds = [{ seed: 20261207 }, {}];

describe("directTree", () => {
  it.each(seeds)("is markdown-it's tree whenever it answers (%o)", (seed) => {
    let headings = 0;
    let links = 0;
    let code = 0;
    const answered = agreesWithParser(directTree, parsed, replies, { numRuns: 4000, ...seed }, (tree) => {
      if (tree.children.some((node) => node.type === "heading")) headings += 1;
      if (JSON.stringify(tree).includes('"type":"link"')) links += 1;
      if (tree.children.some((node) => node.type === "code")) code += 1;
    });
    expect({ answered, headings, links, code }).toEqual({
      answered: expect.toSatisfy((n: number) => n > 500),
      headings: expect.toSatisfy((n: number) => n > 50),
      links: expect.toSatisfy((n: number) => n > 100),
      code: expect.toSatisfy((n: number) => n > 30),
    });
  });

  it.each(seeds)("is markdown-it's tree of list-shaped replies whenever it answers (%o)", (seed) => {
    let lists = 0;
    let ordered = 0;
    let loose = 0;
    let interrupting = 0;
    const answered = agreesWithParser(directTree, parsed, listReplies, { numRuns: 4000, ...seed }, (tree) => {
      const found = tree.children.filter((node) => node.type === "list");
      if (found.length > 0) lists += 1;
      if (found.some((list) => list.ordered && list.start !== 1)) ordered += 1;
      if (found.some((list) => list.spread)) loose += 1;
      if (tree.children.some((node, i) => node.type === "list" && tree.children[i - 1]?.type === "paragraph"))
        interrupting += 1;
    });
    expect({ answered, lists, ordered, loose, interrupting }).toEqual({
      answered: expect.toSatisfy((n: number) => n > 600),
      lists: expect.toSatisfy((n: number) => n > 300),
      ordered: expect.toSatisfy((n: number) => n > 80),
      loose: expect.toSatisfy((n: number) => n > 8),
      interrupting: expect.toSatisfy((n: number) => n > 30),
    });
  });

  it("answers for lists of one-line items, and replyTree takes it", () => {
    const reply =
      "Steps:\n1. Install **it**\n2. Run `npm test`\n3. See [the docs](https://example.com/d)\n\nNotes:\n- one *point*\n- another\n\n- a third, after a blank line\n* a new list\n\n4) and ordered from 4";
    const tree = directTree(reply);
    expect(tree).toEqual(parsed(reply));
    expect(
      tree?.children.map((node) => (node.type === "list" ? [node.start, node.spread] : node.type)),
    ).toEqual(["paragraph", [1, false], "paragraph", [null, true], [null, false], [4, false]]);
    expect(replyTree(reply)).toEqual(tree);
  });

  it("answers for headings and paragraphs of emphasis, code and plain links, and replyTree takes it", () => {
    const reply =
      "## A *heading* with a [link](u) ##  \nHere is **bold**, _italic_, `code` and a [link](https://example.com/x?a=1#c).\nA second line  \nafter a hard break.\n\n\nA [*styled* link](https://example.com/y) ends it.  ";
    const tree = directTree(reply);
    expect(tree).toEqual(parsed(reply));
    expect(tree?.children.map((node) => node.type)).toEqual(["heading", "paragraph", "paragraph"]);
    expect(replyTree(reply)).toEqual(tree);
  });

  it("answers for brackets no `)` follows (a link cut off at the end), with the parser's tree", () => {
    for (const reply of [
      "See [the docs](https://example.com/d) and [more](https://exa",
      "a [b] *c [d* e](",
      "**[a](u) [b** [c]\n\n[d](u) [",
    ]) {
      const tree = directTree(reply);
      expect(tree).toBeDefined();
      expect(tree).toEqual(parsed(reply));
    }
  });

  it.each([
    ["an image", "a ![b](c)"],
    ["a link with a title", '[a](b "t")'],
    ["a link with a blank destination", "[a]( b)"],
    ["a reference link", "[a][b]"],
    ["a bracket a `)` follows", "a [b] c)"],
    ["a paragraph starting with a bracket (maybe a definition)", "[a]: b"],
    ["a nested bracket", "[[a](b)](c)"],
    ["a code span in a link's text", "[a `b`](c)"],
    ["a nested list", "- a\n  - b"],
    ["an item's continuation line", "- a\nb"],
    ["an ordered item from 2 after a paragraph (more of the paragraph)", "intro\n2. item"],
    ["an empty item", "- a\n-"],
    ["an item of spaces", "- "],
    ["a tab after a list marker", "-\titem"],
    ["a thematic break of dashes", "- - -"],
    ["a setext underline", "a\n---"],
    ["a heading in an item", "- # a"],
    ["indented code in an item", "-     code"],
    ["an ordered item of ten digits", "- a\n1234567890. b"],
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
