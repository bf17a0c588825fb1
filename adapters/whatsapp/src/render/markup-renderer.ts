/**
 * Markdown tree → WhatsApp markup, with core's marker renderer (`renderMarkers`): styles
 * `*b* _i_ ~s~ \`code\``, code blocks as ```` ```monospace``` ````, quotes `> `, lists as
 * `- ` / `1. ` lines (nested ones indented), headings as bold lines. WhatsApp has no link
 * labels: a link shows its label and then its URL (the URL alone when they are the same), and
 * the client links the URL. A styled span touching a word gets a zero-width space so its
 * markers stay at word boundaries.
 */
import { type MarkerRenderDialect, renderMarkers } from "@outbox/core";
import type { Root } from "mdast";
import { escapeText, fenceSafe } from "./escape.js";

/** WhatsApp's dialect. */
const WHATSAPP: MarkerRenderDialect = {
  text: escapeText,
  code: (value) => value,
  block: (value) => `\`\`\`${fenceSafe(value)}\`\`\``,
  quote: "> ",
  bullet: "- ",
  // The label, then the URL the client links.
  link(url, label) {
    if (label === url) return url;
    return `${escapeText(label)} (${url})`;
  },
};

/** Render a Markdown tree (a whole reply or a chunk of one) as WhatsApp markup. */
export function renderWhatsApp(tree: Root): string {
  return renderMarkers(tree, WHATSAPP);
}
