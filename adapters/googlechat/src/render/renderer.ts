/**
 * The Google Chat renderer: Markdown tree → Google Chat's text markup with core's marker
 * renderer: `*bold*`, `_italic_`, `~strike~`, `` `code` ``, fenced blocks, links as
 * `<url|label>`, headings as bold lines, lists as `•`/`1.` lines, quotes as plain lines (Chat
 * documents no quote markup for an app's text, and a `>` would show as typed). Measured in UTF-16 code units, as the
 * text limit counts characters; the plain text escaped the same way.
 */
import { type MarkerRenderDialect, type Renderer, renderMarkers, toPlainText } from "@outbox/core";
import type { Root } from "mdast";
import { escapeCode, escapeText, escapeUrl, fenceSafe } from "./escape.js";

/** Google Chat's dialect of core's marker renderer. */
const GOOGLE_CHAT: MarkerRenderDialect = {
  text: escapeText,
  code: escapeCode,
  block: (value) => `\`\`\`\n${fenceSafe(value)}\n\`\`\``,
  quote: "",
  bullet: "• ",
  link(url, label) {
    if (label === url) return escapeText(url);
    // A label cannot hold `>` or `|` (they end the token) and has no escape: such a label is shown before the address.
    if (/[<>|]/.test(label)) return `${escapeText(label)} (${escapeText(url)})`;
    return `<${escapeUrl(url)}|${escapeText(label)}>`;
  },
};

/** Render a Markdown tree (a whole reply or a chunk of one) as Google Chat markup. */
export function renderGoogleChatText(tree: Root): string {
  return renderMarkers(tree, GOOGLE_CHAT);
}

/** Renders replies as Google Chat markup. */
export const googleChatRenderer: Renderer = {
  render: renderGoogleChatText,
  measure: (rendered) => rendered.length,
  // Blocks are rendered on their own and joined by a blank line, and the length adds up.
  blockSeparator: "\n\n",
  plain: (tree) => escapeText(toPlainText(tree, { markers: true })),
};
