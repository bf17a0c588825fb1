/**
 * Markdown tree → Markdown text for MCP clients, which render Markdown. Built from the
 * mdast core parses, so every character of the reply's text is escaped where it could be
 * read as markup: a client shows exactly the text the reply meant, formatted. Links follow
 * core's untrusted-text policy (only http(s) and mailto, no misleading label).
 */

import type { Renderer } from "@outbox/core";
import { judgeLinks, toPlainText } from "@outbox/core";
import type { List, Nodes, Root, RootContent } from "mdast";

const PUNCTUATION = /[\\`*_[\]<>&~|#]/g;

/** Text with every character that could start markup escaped. */
function escapeText(value: string): string {
  return value
    .replace(PUNCTUATION, "\\$&")
    .replace(/^([ \t]*)([>+=-])/gm, "$1\\$2")
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
  const spaced = value.startsWith(" ") && value.endsWith(" ") && value.trim() !== "";
  const pad = value.startsWith("`") || value.endsWith("`") || spaced ? " " : "";
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

/** Inline nodes in a row; an emphasis right after a `*` uses `_`, so the two never merge. */
function inline(children: RootContent[]): string {
  let out = "";
  for (const child of children) {
    out += child.type === "emphasis" ? emphasis(inline(child.children), out.endsWith("*")) : node(child);
  }
  return out;
}

/** `*` works inside words; `_` where a `*` would merge with a neighbouring one. */
function emphasis(content: string, afterStar: boolean): string {
  return wrap(afterStar || /^\*|\*$/.test(content) ? "_" : "*", content);
}

/** Blocks in a row; a list right after a list switches its marker, so the two stay apart. */
function blocks(children: RootContent[], separator: string): string {
  const out: string[] = [];
  let previousList = false;
  let alternate = false;
  for (const child of children) {
    alternate = child.type === "list" && previousList ? !alternate : false;
    previousList = child.type === "list";
    const text = child.type === "list" ? list(child, alternate) : node(child);
    if (text !== "") out.push(text);
  }
  return out.join(separator);
}

function indent(text: string, first: string, rest: string): string {
  return first + text.replace(/\n/g, `\n${rest}`);
}

function list(n: List, alternate = false): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}${alternate ? ")" : "."} ` : alternate ? "* " : "- ";
      // A tight item's blocks stay together (a blank line would make the list loose).
      return indent(blocks(item.children, item.spread ? "\n\n" : "\n"), marker, " ".repeat(marker.length));
    })
    .join("\n");
}

function node(n: Nodes): string {
  switch (n.type) {
    case "root":
      return blocks(n.children, "\n\n");
    case "paragraph":
      return inline(n.children);
    case "heading": {
      const content = inline(n.children);
      // A heading with a line break can only be written setext-style (ATX ends at the line).
      if (content.includes("\n") && n.depth <= 2) return `${content}\n${n.depth === 1 ? "===" : "---"}`;
      return `${"#".repeat(n.depth)} ${content.replace(/\n/g, " ")}`;
    }
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
      return emphasis(inline(n.children), false);
    case "strong":
      return wrap("**", inline(n.children));
    case "delete":
      return wrap("~~", inline(n.children));
    case "spoiler":
      // CommonMark has no spoilers: MCP clients would show the `||`, so the words go plain.
      return inline(n.children);
    case "break":
      return "\\\n";
    case "link":
      return `[${inline(n.children)}](${destination(n.url)})`;
    default:
      return "children" in n ? inline(n.children) : "value" in n ? escapeText(String(n.value)) : "";
  }
}

/** Renders a tree as escaped Markdown, its links judged by core's untrusted-text policy. */
export function renderMarkdown(tree: Root): string {
  return node(judgeLinks(tree));
}

/** The renderer of the MCP channel: Markdown out, readable plain text as the fallback, length in UTF-16 units. */
export const markdownRenderer: Renderer = {
  render: renderMarkdown,
  measure: (rendered) => rendered.length,
  plain: (tree) => toPlainText(tree, { markers: true }),
};
