/**
 * Markdown tree → Discord Markdown, core's Markdown renderer in Discord's dialect. Headings
 * 1–3 stay headings (`#`, `##`, `###`; deeper ones become bold lines), lists are `-`/`1.`
 * lines, quotes `> ` lines (Discord cannot nest them), spoilers `||…||`, tables code blocks
 * with aligned columns, links masked links for http(s) URLs only, judged by core's
 * untrusted-text policy first; all other text is escaped.
 */
import { createMarkdownRenderer } from "@outbox/core";
import type { Root } from "mdast";
import { escapeMarkdown, fenceSafe, linkTarget } from "./escape.js";

const SAFE_LINK = /^https?:\/\//i;

function link(url: string, label: string): string {
  if (!SAFE_LINK.test(url)) return label;
  if (label === escapeMarkdown(url)) return `<${url.replace(/[\s<>]/g, encodeURIComponent)}>`;
  return `[${label}](${linkTarget(url)})`;
}

function inlineCode(value: string): string {
  if (!value.includes("`")) return `\`${value}\``;
  // Double backticks hold single ones; spaces keep a backtick at either end off the fence.
  return `\`\` ${value.replace(/``+/g, (run) => run.split("").join("\u200b"))} \`\``;
}

/** Render a Markdown tree (a whole reply or a chunk of one) as Discord Markdown. */
export const renderDiscordMarkdown: (tree: Root) => string = createMarkdownRenderer({
  text: escapeMarkdown,
  inlineCode,
  codeBlock: (value, language) => (value === "" ? "" : `\`\`\`${language}\n${fenceSafe(value)}\n\`\`\``),
  link,
  heading: (depth, content) =>
    content === ""
      ? ""
      : depth <= 3
        ? `${"#".repeat(depth)} ${content.replace(/\n/g, " ")}`
        : `**${content}**`,
  thematicBreak: "———",
  lineBreak: "\n",
  spoiler: "||",
  flatQuotes: true,
  plainNeighbours: true,
});
