import type { Paragraph, Root } from "mdast";
import { markdownUtils } from "./markdown-it.js";
import { SimplePhrasing } from "./simple-inline.js";

/**
 * A character that starts syntax the direct parser leaves to markdown-it wherever it
 * stands (escapes, raw HTML and autolinks, entities, strikethrough, spoilers), or that
 * markdown-it rewrites or trims (carriage returns, NUL, every whitespace but the space and
 * the line feed).
 */
const OTHER_SYNTAX = /[\\<&~|\r\0]|[^\S \n]/;

/**
 * A line that may open a block other than a paragraph, or continue one in a way the
 * direct parser does not read: a heading, quote, list, setext underline, thematic break,
 * fence, or a line starting with a space (indented code, a blank line of spaces).
 */
const BLOCK_START = /(?:^|\n)(?:[-+#>= ]|\d{1,9}[.)]|```|\*(?:[ \n]|$)|[*_][ *_]*(?:\n|$))/;

/**
 * The tree of a reply made of paragraphs only, whose inline content is text, emphasis,
 * code spans, breaks and plain links (most assistant replies), parsed without markdown-it's
 * tokens: exactly the tree the parser builds, without source positions. `undefined` when
 * the text holds anything else; it is then parsed.
 */
export function directTree(text: string): Root | undefined {
  if (OTHER_SYNTAX.test(text) || BLOCK_START.test(text)) return undefined;
  const inline = new SimplePhrasing(text, markdownUtils());
  const children: Paragraph[] = [];
  // A paragraph is a run of non-blank lines (no line starts with a space, so a blank line is
  // empty), its content trimmed of the spaces ending it, as markdown-it trims it.
  let start = 0;
  while (start < text.length) {
    if (text.charCodeAt(start) === 0x0a) {
      start += 1;
      continue;
    }
    let end = text.indexOf("\n\n", start);
    if (end < 0) end = text.length;
    let last = end;
    while (text.charCodeAt(last - 1) === 0x20 || text.charCodeAt(last - 1) === 0x0a) last -= 1;
    const phrasing = inline.parse(start, last);
    if (phrasing === undefined) return undefined;
    children.push({ type: "paragraph", children: phrasing });
    start = end;
  }
  return { type: "root", children };
}
