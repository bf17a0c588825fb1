/**
 * `chat.postMessage`'s `markdown_text` as a Slack client shows it, after Slack's documented
 * markdown-block rules (docs.slack.dev, "Markdown block"): bold, italic, strike, links, lists,
 * quotes, inline code and code blocks are shown; headings of every level are shown bold; code
 * language, tables, horizontal rules and task lists are not supported (shown as typed, or
 * dropped for rules); images become links. Used to compare it with mrkdwn (docs/adapters/slack.md).
 */
import { type ObservedFormat, parseMarkdown } from "@outbox/core";
import type { Nodes, Root } from "mdast";
import type { DecodedMrkdwn } from "./mrkdwn.js";

/** The most characters Slack takes in `markdown_text`. */
export const MARKDOWN_TEXT_LIMIT = 12_000;

/** Decode `markdown_text` into what a Slack client shows. */
export function decodeMarkdownText(markdown: string): DecodedMrkdwn {
  const out = { text: "", formatting: [] as ObservedFormat[] };
  walk(parseMarkdown(markdown), out, 0);
  out.formatting.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return out;
}

function span(
  out: DecodedMrkdwn,
  kind: ObservedFormat["kind"],
  from: number,
  extra: Partial<ObservedFormat> = {},
) {
  if (out.text.length > from)
    out.formatting.push({ kind, offset: from, length: out.text.length - from, ...extra });
}

function walk(node: Nodes | Root, out: DecodedMrkdwn, depth: number): void {
  const from = out.text.length;
  const children = (list: Nodes[], separator = "") =>
    list.forEach((child, index) => {
      if (index > 0) out.text += separator;
      walk(child, out, depth);
    });
  switch (node.type) {
    case "root":
      children(node.children, "\n\n");
      return;
    case "heading":
      children(node.children);
      span(out, "bold", from);
      return;
    case "blockquote":
      children(node.children, "\n");
      span(out, "quote", from);
      return;
    case "list":
      node.children.forEach((item, index) => {
        if (index > 0) out.text += "\n";
        out.text += `${"    ".repeat(depth)}${node.ordered ? `${(node.start ?? 1) + index}. ` : "• "}`;
        item.children.forEach((child, i) => {
          if (i > 0) out.text += "\n";
          walk(child, out, child.type === "list" ? depth + 1 : depth);
        });
      });
      return;
    case "code":
      out.text += node.value;
      span(out, "pre", from);
      return;
    case "inlineCode":
      out.text += node.value;
      span(out, "code", from);
      return;
    case "strong":
    case "emphasis":
    case "delete":
      children(node.children);
      span(out, node.type === "strong" ? "bold" : node.type === "emphasis" ? "italic" : "strike", from);
      return;
    case "link":
      children(node.children);
      span(out, "link", from, { url: node.url });
      return;
    case "image":
      out.text += node.alt || node.url;
      span(out, "link", from, { url: node.url });
      return;
    case "thematicBreak":
      return;
    case "break":
      out.text += "\n";
      return;
    case "text":
    case "html":
      out.text += node.value;
      return;
    default:
      if ("children" in node) children(node.children as Nodes[]);
  }
}
