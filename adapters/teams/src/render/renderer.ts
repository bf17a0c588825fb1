/**
 * The Teams renderer: Markdown tree → the HTML subset Teams shows in a bot's text message
 * (`textFormat: "xml"`), measured in UTF-16 bytes of its JSON string (how the connector counts
 * an activity against its size limit), and a readable plain text.
 *
 * HTML rather than Teams' Markdown: Teams' Markdown needs a blank line for a new line, guesses
 * at markers inside words and passes raw HTML through, while its HTML has one reading and every
 * text value is escaped, so a `<at>` in the reply is text, never a mention.
 */
import { createHtmlRenderer, type Renderer, toPlainText } from "@outbox/core";
import type { Root } from "mdast";

/** Core's HTML dialect with Teams' elements: headings as bold lines (text messages draw no headings). */
const renderHtml = createHtmlRenderer({
  heading: (_depth, content) => `<p><strong>${content}</strong></p>`,
  // Teams has no spoiler: the span shows its text plainly.
  spoilerAttributes: "",
});

/**
 * Render a Markdown tree (a whole reply or a chunk of one) as Teams HTML. Teams documents
 * `<strike>` for strikethrough: core writes `<del>`, renamed here; every text value is escaped
 * by then, so a `<del>` in the output can only be core's own tag.
 */
export function renderTeamsHtml(tree: Root): string {
  const html = renderHtml(tree);
  return html.includes("<del>")
    ? html.replaceAll("<del>", "<strike>").replaceAll("</del>", "</strike>")
    : html;
}

/** UTF-16 bytes of text as a JSON string, quotes and escapes included: what it adds to an activity. */
export function utf16JsonBytes(text: string): number {
  return 2 * JSON.stringify(text).length;
}

/** Renders replies as Teams HTML. */
export const teamsRenderer: Renderer = {
  render: renderTeamsHtml,
  measure: utf16JsonBytes,
  plain: (tree) => toPlainText(tree),
};
