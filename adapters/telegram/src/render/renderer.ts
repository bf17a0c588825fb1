/**
 * The Telegram renderer: Markdown tree → Telegram HTML, its measure (visible UTF-16 length
 * after entity parsing, as Telegram counts its 4096/1024 limits), both in one walk, and a
 * readable plain text for when Telegram refuses the markup.
 */
import type { Renderer } from "@outbox/core";
import { plainText, visibleLength } from "./escape.js";
import { renderTelegramHtml, renderTelegramHtmlMeasured } from "./html-renderer.js";

/** Renders replies as Telegram HTML (`parse_mode: "HTML"`). */
export const telegramRenderer: Renderer = {
  render: renderTelegramHtml,
  measure: visibleLength,
  renderMeasured: renderTelegramHtmlMeasured,
  // Blocks are rendered on their own and joined by a blank line; tags and entities never span one.
  blockSeparator: "\n\n",
  plain: (tree) => plainText(renderTelegramHtml(tree)),
};
