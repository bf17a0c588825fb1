import fc from "fast-check";
import type { Nodes } from "mdast";
import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/markdown/parse-markdown.js";
import { oracleTree, parseWithMicromark, withoutPositions } from "./support/micromark-oracle.js";

/**
 * markdown-it → mdast against micromark (mdast-util-from-markdown + GFM strikethrough), the
 * reference. Understood differences, applied to the oracle's tree before comparing:
 * - a code span's line endings are spaces (CommonMark 6.1 says so; mdast keeps them raw);
 * - `\r\n` and `\r` are read as `\n` (markdown-it normalizes line endings first);
 * - a fence's info string is trimmed, `meta` included (CommonMark 4.5);
 * - a fence left open at the end of the text loses its trailing blank lines (markdown-it);
 * - a tab partly used as indentation in a container: the two keep different whitespace at
 *   the start of code and HTML lines, so that whitespace is not compared.
 * Cases where the two parse differently are pinned in "differs from micromark" below; the
 * generators avoid them (no `~~` next to intraword `*`, ordered lists start at 1, and see
 * {@link comparable}), and {@link expectSame} takes markdown-it's `spread`
 * where micromark misreads a quoted list.
 */
function oracle(text: string): Nodes {
  return normalize(oracleTree(text), text.includes("\t"));
}

function normalize<T extends Nodes>(node: T, tabs = false): T {
  if (node.type === "inlineCode") node.value = node.value.replace(/\r\n|\r|\n/g, " ");
  else if ("value" in node) node.value = node.value.replace(/\r\n?/g, "\n");
  if (node.type === "code" && node.meta) node.meta = node.meta.trim();
  if (node.type === "code") node.value = node.value.replace(/(?:^|\n)[ \t\n]*$/, "");
  if (node.type === "html" || (tabs && node.type === "code"))
    node.value = node.value.replace(/^[ \t]+/gm, "");
  if ("children" in node) for (const child of node.children) normalize(child, tabs);
  return node;
}

/**
 * Whether a generated text avoids the known differences pinned below: micromark's bug with
 * an empty list item, tildes touching `*`/`_` (paired differently), a `*`/`_` run between
 * punctuation (the rule of 3 after a partial match), markdown-it's bugs with an unclosed `[`
 * before three runs of backticks and with an indented `>` after a quote line (it continues
 * the quote where CommonMark ends an empty one or one holding an open fence: code), and
 * markdown-it's reading of a tab right after a list marker inside a quote (it counts the
 * tab's columns from the line's start, not from the quote's content).
 */
function comparable(text: string): boolean {
  if (/^(?:[ \t>]|[-*+]|\d+[.)])*(?:[-*+]|\d+[.)])[ \t>]*$/m.test(text) || /[*_]~|~[*_]/.test(text))
    return false;
  if (/[!-/:-@[-`{}][*_]+[!-/:-@[-`{}]/.test(text) || /^[ \t]*>.*\n(?: {4}|\t)[ \t]*>/m.test(text))
    return false;
  if (/^(?:[ \t]*>)+[ \t]*(?:[-*+]|\d+[.)]) *\t/m.test(text)) return false;
  const bracket = text.indexOf("[");
  return bracket < 0 || (text.slice(bracket).match(/`+/g) ?? []).length < 3;
}

const mine = (text: string): Nodes => normalize(withoutPositions(parseMarkdown(text)), text.includes("\t"));

/**
 * Compare with micromark, taking markdown-it's `spread` for lists inside a quote: micromark
 * miscounts blank `>` lines around nested lists there (pinned below).
 */
function expectSame(text: string): void {
  const actual = mine(text);
  const expected = oracle(text);
  alignQuotedSpread(actual, expected, false);
  expect(actual).toEqual(expected);
}

function alignQuotedSpread(actual: Nodes, expected: Nodes, quoted: boolean): void {
  if (!("children" in actual) || !("children" in expected)) return;
  if (quoted && (actual.type === "list" || actual.type === "listItem") && expected.type === actual.type)
    expected.spread = actual.spread;
  actual.children.forEach((child, index) => {
    const other = expected.children[index];
    if (other !== undefined) alignQuotedSpread(child, other, quoted || actual.type === "blockquote");
  });
}

describe("parseMarkdown matches micromark", () => {
  it.each([
    "plain text",
    "a\nb",
    "a  \nb",
    "a\\\nb",
    "a \nb",
    "a\t\nb",
    "*em* and _em_",
    "**strong** __strong__",
    "***both***",
    "*a **b** c*",
    "foo*bar*",
    "_foo_bar_",
    "*foo",
    "**foo*",
    "~~del~~",
    "~del~",
    "a ~~b ~~c~~ d~~",
    "**a ~~b** c~~",
    "`code`",
    "`` a ` b ``",
    "` a `",
    "`a\nb`",
    "\\*not em\\*",
    "&amp; &copy; &#35; &#x22; &bogus;",
    "# h1",
    "## h2 ##",
    "###### h6",
    "####### no",
    "#no",
    "# ",
    "Setext\n===",
    "Setext 2\n---",
    "a\n\n---\n\nb",
    "- - -",
    "```\ncode\n```",
    "```js\nx\n```",
    '```js title="a b"\nx\n```',
    "~~~\ncode\n~~~",
    "```\nunclosed",
    "````\n```\n````",
    "    indented\n    code",
    "    a\n\n    b",
    "  ```\n  x\n  ```",
    "\tcode",
    "* * *\n    code after",
    "a\n    b",
    "> quote",
    "> a\nlazy",
    "> a\n\n> b",
    ">> nested",
    "> # h\n> para",
    "> ```\n> x\n> ```",
    "> > nested\n> >     code",
    "- a\n- b",
    "- a\n\n- b",
    "- a\n\n  b",
    "1. a\n2. b",
    "3. a\n4. b",
    "1) a",
    "10. x",
    "* a\n+ b",
    "- a\n  - b\n  - c\n- d",
    "- a\n  - b\n\n  - c\n- d",
    "-\n  foo",
    "- ",
    "- a\n- \n- c",
    "- a\n\n\n- b",
    "- a\n\n  b\n- c",
    "- a\nb",
    "1. a\n\n   ```\n   x\n   ```",
    "- ```\n  a\n\n  b\n  ```",
    "- a\n  > q",
    "- # h\n  p",
    "- a\n\n\tcode",
    "[link](http://e.x)",
    '[link](http://e.x "title")',
    "[link](<a b>)",
    "[empty]()",
    "[a](javascript:alert(1)) [b](file:///etc/passwd)",
    '[a][b]\n\n[b]: /u "t"',
    "[b]\n\n[b]: /u",
    "[B][]\n\n[b]: /u",
    "[a][b]\n\n[b]: /first\n[b]: /second",
    '![img](/p.png "t")',
    "![a *b* `c`](/p)",
    "![r][x]\n\n[x]: /i",
    "<http://auto.link>",
    "<a@b.co>",
    "[a](/ü)",
    "[a](/%20x)",
    "[a](\\(x\\))",
    "[a](&amp;)",
    "[**bold** `code`](/u)",
    "<div>\nhtml\n</div>",
    "<span>inline</span> x",
    "<!-- c -->",
    "a <b>bold</b> c",
    "<div>\n\nmd\n\n</div>",
    "a\u0000b",
    "a\r\nb",
    "a\rb\r\n\r\nc",
    "tab\there",
    "héllo 😀 مرحبا",
    "a || b",
    "x<y & 1>0",
    "[x",
    "![x",
    "\\",
    "**",
  ])("%j", (text) => {
    expectSame(text);
  });
});

describe("parseMarkdown differs from micromark (understood, pinned)", () => {
  it("reads a tab after a list marker in a quote as indentation (micromark: a fence)", () => {
    const text = "> > - \t```";
    // Quote, quote, list, item, then the code block each reads.
    const inItem = (code: object) => ({
      children: [{ children: [{ children: [{ children: [{ children: [code] }] }] }] }],
    });
    expect(mine(text)).toMatchObject(inItem({ type: "code", value: "```" }));
    expect(oracle(text)).toMatchObject(inItem({ type: "code", value: "" }));
  });

  it("starts an ordered list at any number after indented code (micromark reads a paragraph)", () => {
    const text = "    code\n\n7) item";
    expect(mine(text)).toMatchObject({ children: [{ type: "code" }, { type: "list", start: 7 }] });
    expect(oracle(text)).toMatchObject({ children: [{ type: "code" }, { type: "paragraph" }] });
  });

  it("pairs `~~` touching `*` runs on its own (micromark resolves emphasis first)", () => {
    const text = "under_score ~~snake*~~ ~~snake*~~";
    expect(mine(text)).toMatchObject({
      children: [{ children: [{ type: "text" }, { type: "delete" }, { type: "text" }, { type: "delete" }] }],
    });
    expect(oracle(text)).not.toEqual(mine(text));
  });

  it("ends an empty list item at a blank line and keeps the code after it whole", () => {
    const text = "-\n\n    a\n    b\n-";
    expect(mine(text)).toMatchObject({
      children: [{ type: "list" }, { type: "code", value: "a\nb" }, { type: "list" }],
    });
    expect(oracle(text)).toMatchObject({
      children: [
        { type: "list" },
        { type: "code", value: "a" },
        { type: "code", value: "b" },
        { type: "paragraph" },
      ],
    });
  });

  it("makes a quoted list loose when an item ending in a nested list is followed by a blank line", () => {
    const text = "> - - a\n>\n> - b";
    expect(mine(text)).toMatchObject({ children: [{ children: [{ type: "list", spread: true }] }] });
    expect(oracle(text)).toMatchObject({ children: [{ children: [{ type: "list", spread: false }] }] });
  });

  it("ends a list item's definition at its line (micromark continues it lazily)", () => {
    const text = "1. [r]: /ref\nlazy";
    expect(mine(text)).toMatchObject({ children: [{ type: "list" }, { type: "paragraph" }] });
    expect(oracle(text)).toMatchObject({
      children: [{ type: "list", children: [{ children: [{ type: "paragraph" }] }] }],
    });
  });

  it("does not count an emoji as punctuation next to `*` (CommonMark 0.31 counts symbols)", () => {
    expect(mine("**😀*`")).toMatchObject({ children: [{ children: [{ type: "text", value: "**😀*`" }] }] });
    expect(oracle("**😀*`")).toMatchObject({
      children: [{ children: [{ type: "text" }, { type: "emphasis" }, { type: "text" }] }],
    });
    expect(mine("**😀** _😀_")).toEqual(oracle("**😀** _😀_"));
  });

  it("keeps `[` then three backtick runs as text (a markdown-it bug: its code-span cache)", () => {
    expect(mine("[``` ```x```")).toMatchObject({
      children: [{ children: [{ type: "text", value: "[``` ```x```" }] }],
    });
    expect(oracle("[``` ```x```")).toMatchObject({
      children: [{ children: [{ type: "text" }, { type: "inlineCode" }, { type: "text" }] }],
    });
  });

  it("continues a list item's paragraph lazily with inline HTML (micromark ends the list)", () => {
    expect(mine("- <\n<b>")).toMatchObject({ children: [{ type: "list" }] });
    expect(oracle("- <\n<b>")).toMatchObject({ children: [{ type: "list" }, { type: "html" }] });
  });

  it("applies the rule of 3 with a run's original length after a partial match (like commonmark.js)", () => {
    const text = "=*`*1) _**";
    expect(mine(text)).toMatchObject({
      children: [{ children: [{ type: "text" }, { type: "emphasis" }, { type: "text", value: "*" }] }],
    });
    expect(oracle(text)).toMatchObject({
      children: [{ children: [{ type: "text" }, { type: "emphasis" }] }],
    });
  });

  it("continues an empty quote with an indented `>` line (a markdown-it bug; CommonMark: code)", () => {
    expect(mine(">\n    > x")).toMatchObject({
      children: [{ type: "blockquote", children: [{ type: "paragraph" }] }],
    });
    expect(oracle(">\n    > x")).toMatchObject({
      children: [{ type: "blockquote" }, { type: "code", value: "> x" }],
    });
  });

  it("continues a quote holding an open fence with an indented `>` line (markdown-it; CommonMark: code)", () => {
    expect(mine("> ```\n    > x")).toMatchObject({
      children: [{ type: "blockquote", children: [{ type: "code", value: "x" }] }],
    });
    expect(oracle("> ```\n    > x")).toMatchObject({
      children: [{ type: "blockquote" }, { type: "code", value: "> x" }],
    });
  });

  it("reads runs of three or more tildes as text, like GFM", () => {
    expect(mine("~~~a~~~ ~~b~~")).toEqual(oracle("~~~a~~~ ~~b~~"));
  });

  it("turns a code span's line endings into spaces and reads \\r\\n as \\n", () => {
    expect(mine("`a\nb`\r\nc")).toEqual({
      type: "root",
      children: [
        {
          type: "paragraph",
          children: [
            { type: "inlineCode", value: "a b" },
            { type: "text", value: "\nc" },
          ],
        },
      ],
    });
  });
});

/** Fragments of Markdown syntax, glued at random: the odd corners parsers disagree on. */
const piece = fc.constantFrom(
  "```",
  "~~~",
  "`",
  "``",
  "\n",
  "\n\n",
  "    ",
  "\t",
  " ",
  "> ",
  "- ",
  "* ",
  "1. ",
  "1) ",
  "# ",
  "---",
  "===",
  "\\",
  "*",
  "**",
  "_",
  "[",
  "]",
  "](/u)",
  '](/u "t")',
  "![",
  "<",
  ">",
  "<div>",
  "&amp;",
  "&#42;",
  "x",
  "word ",
  "\n\n[r]: /ref\n\n",
);
const soup = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(""));

const word = fc.constantFrom("alpha", "beta", "a&b", "x<y", "héllo", "😀", "z", "under_score");
const words = fc.array(word, { minLength: 1, maxLength: 6 }).map((list) => list.join(" "));
const inline: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: words },
  { weight: 1, arbitrary: words.map((w) => `**${w}**`) },
  { weight: 1, arbitrary: words.map((w) => `_${w}_`) },
  { weight: 1, arbitrary: words.map((w) => `*${w}*`) },
  { weight: 1, arbitrary: words.map((w) => `~~${w}~~`) },
  { weight: 1, arbitrary: words.map((w) => `\`${w}\``) },
  { weight: 1, arbitrary: words.map((w) => `[${w}](https://e.x/${w.length} "t")`) },
  { weight: 1, arbitrary: words.map((w) => `![${w}](/i.png)`) },
  { weight: 1, arbitrary: words.map((w) => `<span>${w}</span>`) },
  { weight: 1, arbitrary: fc.constantFrom("  \n", "\\\n", "\n", "&copy;", "\\*", "<https://e.x>") },
);
const paragraph = fc.array(inline, { minLength: 1, maxLength: 8 }).map((list) => list.join(" "));
const block: fc.Arbitrary<string> = fc.letrec<{ block: string }>((tie) => ({
  block: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 5, arbitrary: paragraph },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 1, max: 6 }), words).map(([n, w]) => `${"#".repeat(n)} ${w}`),
    },
    { weight: 1, arbitrary: words.map((w) => `${w}\n${"=".repeat(3)}`) },
    { weight: 1, arbitrary: fc.constantFrom("---", "***", "_ _ _") },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("```", "~~~", "````"),
          fc.constantFrom("", "ts", "js title=x"),
          fc.array(words),
        )
        .map(([fence, info, body]) => `${fence}${info}\n${body.join("\n")}\n${fence}`),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(words, { minLength: 1, maxLength: 3 })
        .map((ls) => ls.map((l) => `    ${l}`).join("\n")),
    },
    { weight: 1, arbitrary: words.map((w) => `<div>\n${w}\n</div>`) },
    {
      weight: 1,
      arbitrary: tie("block").map((b) => b.replace(/^/gm, "> ")),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom("- ", "* ", "1. ", "1) "),
          fc.array(fc.array(tie("block"), { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 3 }),
          fc.constantFrom("\n", "\n\n"),
        )
        .map(([marker, items, separator]) =>
          items
            .map((item) => marker + item.join("\n\n").replace(/\n/g, `\n${" ".repeat(marker.length)}`))
            .join(separator),
        ),
    },
  ),
})).block;
const document = fc.array(block, { minLength: 1, maxLength: 6 }).map((blocks) => blocks.join("\n\n"));

describe("parseMarkdown matches micromark on generated Markdown", () => {
  it("structured documents", () => {
    fc.assert(
      fc.property(document, (text) => {
        fc.pre(comparable(text));
        expectSame(text);
      }),
      { numRuns: 300 },
    );
  });

  it("syntax soup", () => {
    fc.assert(
      fc.property(soup, (text) => {
        fc.pre(comparable(text));
        expectSame(text);
      }),
      { numRuns: 500 },
    );
  });
});

/** Source ranges of the code spans of a tree, in document order. */
function codeSpans(tree: Nodes): Array<[number | undefined, number | undefined]> {
  const spans: Array<[number | undefined, number | undefined]> = [];
  const visit = (node: Nodes): void => {
    if (node.type === "inlineCode") spans.push([node.position?.start.offset, node.position?.end.offset]);
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return spans;
}

describe("parseMarkdown positions", () => {
  it.each([
    "`a` b `c`",
    "para\n  `x` and\n\t`y`  ",
    "> quoted `x`\n> more `y`\nlazy `z`",
    "- item `a`\n\n  cont `b`\n  - nested `c`",
    "# heading `h` ##",
    "Setext `s`\n===",
    "[`in link`](/u) **`in strong`**",
    "a\r\n`b`\r`c`",
  ])("puts each code span where micromark does: %j", (text) => {
    expect(codeSpans(parseMarkdown(text))).toEqual(codeSpans(parseWithMicromark(text)));
  });

  it("puts code spans where micromark does in generated documents", () => {
    fc.assert(
      fc.property(document, (text) => {
        fc.pre(comparable(text));
        expect(codeSpans(parseMarkdown(text))).toEqual(codeSpans(parseWithMicromark(text)));
      }),
      { numRuns: 200 },
    );
  });

  it("gives blocks line-based positions", () => {
    const tree = parseMarkdown("# T\n\n> a\n> b\n\n```js\nx\n```");
    expect(tree.children.map((node) => [node.position?.start.line, node.position?.end.line])).toEqual([
      [1, 1],
      [3, 4],
      [6, 8],
    ]);
    expect(tree.children[2]?.position?.start.offset).toBe(14);
  });
});
