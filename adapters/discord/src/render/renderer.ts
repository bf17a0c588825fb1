/**
 * The Discord renderer: Markdown tree → Discord Markdown, measured as Discord counts its
 * 2,000-character limit (UTF-16 code units of the content as sent, markup included: never
 * under Discord's own count), and readable plain text for the tree.
 */
import { type Renderer, toPlainText } from "@outbox/core";
import { renderDiscordMarkdown } from "./markdown-renderer.js";

/** Renders replies as Discord Markdown. */
export const discordRenderer: Renderer = {
  render: renderDiscordMarkdown,
  measure: (rendered) => rendered.length,
  // Blocks are rendered on their own and joined by a blank line, and the length adds up.
  blockSeparator: "\n\n",
  plain: (tree) => toPlainText(tree),
};
