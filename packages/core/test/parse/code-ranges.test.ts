import fc from "fast-check";
import type { Nodes } from "mdast";
import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/markdown/parse-markdown.js";
import { findCodeRanges, inCode } from "../../src/parse/code-ranges.js";

/** Offsets of code according to the real Markdown parser (mdast `code` and `inlineCode`). */
function referenceCode(text: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const visit = (node: Nodes): void => {
    if ((node.type === "code" || node.type === "inlineCode") && node.position) {
      ranges.push([node.position.start.offset ?? 0, node.position.end.offset ?? 0]);
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(text));
  return ranges;
}

/** Non-blank characters whose code status differs between the scanner and the reference. */
function disagreements(text: string): number[] {
  const mine = findCodeRanges(text);
  const reference = referenceCode(text);
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (/\s/.test(text.charAt(i))) continue;
    const theirs = reference.some(([start, end]) => start <= i && i < end);
    if (inCode(mine, i) !== theirs) out.push(i);
  }
  return out;
}

describe("findCodeRanges agrees with the Markdown parser", () => {
  it.each([
    "plain text",
    "```\ncode\n```\nafter",
    "~~~js\n[[x]]\n~~~",
    "```\nnever closed\n\nstill code",
    "``` x ` y\nnot a fence",
    "````\n```\n````",
    "   ```\n   code\n   ```",
    "    indented\n\n    more\nnot",
    "para\n    continuation",
    "\tcode with a tab",
    "`a` b ``c`` d ``` e",
    "`unclosed and ``closed``",
    "\\`escaped` `span`",
    "`multi\nline`",
    "> ```\n> quoted fence\n> ```\noutside",
    "> para\nlazy `x`",
    "- item\n\n      item code\n- next",
    "1. one\n   ```\n   fenced in item\n   ```",
    "# heading `code`",
    "text\n---\n`x`",
    "* * *\n    code after break",
    "- a\n  - b\n\n        deep code",
    "> > nested\n> >     code",
    "para\n```\nfence interrupts\n```",
    "```\na\n```   \nMEDIA:/x",
    // markdown-it continues a quote at any indentation (found by the property below).
    "> \n\t> ",
    "> a\n     > b `c`",
  ])("%j", (text) => {
    expect(disagreements(text)).toEqual([]);
  });

  const piece = fc.constantFrom(
    "```",
    "~~~",
    "````",
    "`",
    "``",
    "\n",
    "\n\n",
    "    ",
    "\t",
    " ",
    "> ",
    "- ",
    "1. ",
    "# ",
    "---",
    "\\",
    "x",
    "word ",
    "MEDIA:/a.png",
    "[[audio_as_voice]]",
  );
  it("on generated Markdown", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join("");
        expect(disagreements(text)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });
});
