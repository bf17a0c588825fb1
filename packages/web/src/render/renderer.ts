/**
 * The web renderer: Markdown tree → sanitized HTML; its measure (visible length, UTF-16) and
 * a plain-text fallback.
 */
import { type Renderer, toPlainText } from "@outbox/core";
import { renderMarkdownHtml } from "./html-renderer.js";
import { sanitizeHtml } from "./sanitize.js";

/** Renders replies as sanitized HTML fragments (`text.format: "html"`). */
export const webRenderer: Renderer = {
  render: (tree) => sanitizeHtml(renderMarkdownHtml(tree)),
  measure: (rendered) => rendered.length,
  // Blocks are whole elements written one after another, and sanitizing well-nested elements
  // one by one writes what sanitizing them together does.
  blockSeparator: "",
  plain: (tree) => toPlainText(tree),
};
