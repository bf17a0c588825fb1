/**
 * Markdown tree → Slack mrkdwn, with core's marker renderer (`renderMarkers`): styles
 * `*b* _i_ ~s~ \`code\``, code blocks in fences (Slack shows no language), links
 * `<url|label>`, quotes `&gt; `, headings as bold lines, lists as `•`/`1.` lines. A styled span
 * touching a word gets a zero-width space so Slack still sees its markers at word boundaries.
 */
import { type MarkerRenderDialect, renderMarkers } from "@outbox/core";
import type { Root } from "mdast";
import { escapeControl, escapeText, escapeUrl, fenceSafe } from "./escape.js";

/** Rendering options. */
export interface MrkdwnOptions {
  /** Keep Slack's mention tokens (`<@U…>`, `<!here>` …) live. */
  mentions: boolean;
}

/** Slack's dialect, with mention tokens kept live or neutralized. */
const dialect = (mentions: boolean): MarkerRenderDialect => ({
  text: (value) => escapeText(value, mentions),
  code: escapeControl,
  block: (value) => `\`\`\`\n${fenceSafe(escapeControl(value))}\n\`\`\``,
  quote: "&gt; ",
  bullet: "• ",
  link(url, label) {
    if (label === url) return `<${escapeUrl(url)}>`;
    return `<${escapeUrl(url)}|${escapeControl(label)}>`;
  },
});
const DIALECTS = { live: dialect(true), neutralized: dialect(false) };

/** Render a Markdown tree (a whole reply or a chunk of one) as Slack mrkdwn. */
export function renderMrkdwn(tree: Root, options: MrkdwnOptions): string {
  return renderMarkers(tree, options.mentions ? DIALECTS.live : DIALECTS.neutralized);
}
