/**
 * Markdown tree → Markdown text for MCP clients, which render Markdown: core's Markdown
 * renderer in plain CommonMark. Every character of the reply's text is escaped where it could
 * be read as markup, so a client shows exactly the text the reply meant, formatted; links
 * follow core's untrusted-text policy (only http(s) and mailto, no misleading label);
 * spoilers, which CommonMark lacks, show their words plain.
 */

import type { Renderer } from "@outbox/core";
import { createMarkdownRenderer, toPlainText } from "@outbox/core";
import type { Root } from "mdast";

const commonMark = createMarkdownRenderer();

/** Renders a tree as escaped Markdown, its links judged by core's untrusted-text policy. */
export function renderMarkdown(tree: Root): string {
  return commonMark(tree);
}

/** The renderer of the MCP channel: Markdown out, readable plain text as the fallback, length in UTF-16 units. */
export const markdownRenderer: Renderer = {
  render: renderMarkdown,
  measure: (rendered) => rendered.length,
  plain: (tree) => toPlainText(tree, { markers: true }),
};
