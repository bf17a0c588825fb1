import type { Root } from "mdast";
import { treeNodes } from "./phrasing-nodes.js";

/**
 * A character that may start Markdown syntax anywhere in a line (emphasis, code, links,
 * raw HTML, entities, escapes, strikethrough, spoilers), or that the parser rewrites or
 * trims (carriage returns, NUL, every whitespace but the space and the line feed).
 */
const SYNTAX_ANYWHERE = /[\\`*_[\]<&|~\0]|[^\S \n]/;

/**
 * A line that may open a block (heading, quote, list, setext underline, indented code) or
 * whose edge spaces the parser trims or reads as a hard break.
 */
const SYNTAX_AT_LINE_EDGE = /(?:^|\n)(?:[-+#>= ]|\d{1,9}[.)])| (?:\n|$)/;

/**
 * The tree of a reply that holds no Markdown syntax at all (most short replies): paragraphs
 * of text, one per run of non-blank lines, lines joined by `\n`, exactly as the parser
 * would build it (without source positions, a long reply's recurring paragraphs shared: see
 * {@link treeNodes}). `undefined` when the text holds anything the parser could read as
 * syntax; it is then parsed. Sending such a reply never loads the parser.
 */
export function plainTree(text: string): Root | undefined {
  if (SYNTAX_ANYWHERE.test(text) || SYNTAX_AT_LINE_EDGE.test(text)) return undefined;
  const nodes = treeNodes(text);
  const children: Root["children"] = [];
  // Blocks are the runs between blank lines, their line feeds at the text's edges dropped.
  for (let start = 0; start < text.length; ) {
    while (text.charCodeAt(start) === 0x0a) start += 1;
    const blank = text.indexOf("\n\n", start);
    let end = blank < 0 ? text.length : blank;
    while (end > start && text.charCodeAt(end - 1) === 0x0a) end -= 1;
    if (end > start) children.push(nodes.textParagraph(text.slice(start, end)));
    start = blank < 0 ? text.length : blank;
  }
  return { type: "root", children };
}
