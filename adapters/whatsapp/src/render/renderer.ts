/**
 * The WhatsApp renderer: Markdown tree → WhatsApp markup, its measure (UTF-16 length of the
 * body sent) and a readable plain text.
 */
import { type Renderer, toPlainText } from "@outbox/core";
import { escapeText } from "./escape.js";
import { renderWhatsApp } from "./markup-renderer.js";

/** A renderer writing WhatsApp markup. */
export const whatsappRenderer: Renderer = {
  render: renderWhatsApp,
  measure: (rendered) => rendered.length,
  // Blocks are rendered on their own and joined by a blank line, and the length adds up.
  blockSeparator: "\n\n",
  plain: (tree) => escapeText(toPlainText(tree, { markers: true })),
};
