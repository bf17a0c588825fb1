/**
 * Markdown tree → Markdown text for MCP clients, which render Markdown. Built from the
 * mdast core parses, so every character of the reply's text is escaped where it could be
 * read as markup: a client shows exactly the text the reply meant, formatted.
 */

import type { Renderer } from "@outbox/core";
import { toPlainText } from "@outbox/core";
import type { List, Nodes, Root, RootContent } from "mdast";

const PUNCTUATION = /[\\`*_[\]<>&~|]/g;

/** Text with every character that could start markup escaped. */
function escapeText(value: string): string {
  return value
    .replace(PUNCTUATION, "\\$&")
    .replace(/^([ \t]*)([#>+=-])/gm, "$1\\$2")
    .replace(/^([ \t]*\d+)([.)])/gm, "$1\\$2");
}

/** The longest run of backticks in a string. */
function longestBackticks(value: string): number {
  let longest = 0;
  for (const run of value.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

function inlineCode(value: string): string {
  const fence = "`".repeat(longestBackticks(value) + 1);
  const pad = value.startsWith("`") || value.endsWith("`") || value.trim() === "" ? " " : "";
  return `${fence}${pad}${value}${pad}${fence}`;
}

function codeBlock(value: string, lang: string | null | undefined): string {
  const fence = "`".repeat(Math.max(3, longestBackticks(value) + 1));
  const info = lang && /^[\w#+.-]{1,32}$/.test(lang) ? lang : "";
  return `${fence}${info}\n${value}\n${fence}`;
}

/** A URL as a link destination: characters that would end it percent-encoded. */
function destination(url: string): string {
  return url.replace(/[\s()<>\\]/g, (c) => encodeURIComponent(c));
}

function wrap(marker: string, content: string): string {
  return content === "" ? "" : `${marker}${content}${marker}`;
}

function inline(children: RootContent[]): string {
  return children.map(node).join("");
}

function blocks(children: RootContent[], separator: string): string {
  return children
    .map(node)
    .filter((text) => text !== "")
    .join(separator);
}

function indent(text: string, first: string, rest: string): string {
  return first + text.replace(/\n/g, `\n${rest}`);
}

function list(n: List): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}. ` : "- ";
      return indent(blocks(item.children, "\n\n"), marker, " ".repeat(marker.length));
    })
    .join("\n");
}

function node(n: Nodes): string {
  switch (n.type) {
    case "root":
      return blocks(n.children, "\n\n");
    case "paragraph":
      return inline(n.children);
    case "heading":
      return `${"#".repeat(n.depth)} ${inline(n.children)}`;
    case "thematicBreak":
      return "***";
    case "blockquote":
      return indent(blocks(n.children, "\n\n"), "> ", "> ");
    case "list":
      return list(n);
    case "listItem":
      return blocks(n.children, "\n\n");
    case "code":
      return codeBlock(n.value, n.lang);
    case "html":
    case "text":
      return escapeText(n.value);
    case "inlineCode":
      return inlineCode(n.value);
    case "emphasis":
      return wrap("_", inline(n.children));
    case "strong":
      return wrap("**", inline(n.children));
    case "delete":
      return wrap("~~", inline(n.children));
    case "spoiler":
      return wrap("||", inline(n.children));
    case "break":
      return "\\\n";
    case "link": {
      const content = inline(n.children);
      return `[${content === "" ? escapeText(n.url) : content}](${destination(n.url)})`;
    }
    case "image":
      return `[${escapeText(n.alt || n.url)}](${destination(n.url)})`;
    default:
      return "children" in n ? inline(n.children) : "value" in n ? escapeText(String(n.value)) : "";
  }
}

/** Renders a tree as escaped Markdown. */
export function renderMarkdown(tree: Root): string {
  return node(tree);
}

/** The renderer of the MCP channel: Markdown out, readable plain text as the fallback, length in UTF-16 units. */
export const markdownRenderer: Renderer = {
  render: renderMarkdown,
  measure: (rendered) => rendered.length,
  plain: (tree) => toPlainText(tree, { markers: true }),
};
