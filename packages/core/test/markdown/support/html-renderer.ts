import type { Root, RootContent } from "mdast";
import type { Renderer } from "../../../src/adapter/types.js";
import { toPlainText } from "../../../src/markdown/plain-text.js";

const escapeHtml = (value: string): string =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function node(n: Root | RootContent): string {
  switch (n.type) {
    case "text":
    case "html":
      return escapeHtml(n.value);
    case "inlineCode":
      return `<code>${escapeHtml(n.value)}</code>`;
    case "code":
      return `<pre lang="${n.lang ?? ""}">${escapeHtml(n.value)}</pre>`;
    case "break":
      return "\n";
    case "image":
      return escapeHtml(n.alt ?? "");
    case "thematicBreak":
      return "<hr>";
    case "strong":
      return `<b>${inline(n.children)}</b>`;
    case "emphasis":
      return `<i>${inline(n.children)}</i>`;
    case "delete":
      return `<s>${inline(n.children)}</s>`;
    case "spoiler":
      return `<sp>${inline(n.children)}</sp>`;
    case "link":
      return `<a href="${escapeHtml(n.url)}">${inline(n.children)}</a>`;
    case "heading":
      return `<b>${inline(n.children)}</b>`;
    case "blockquote":
      return `<q>${n.children.map(node).join("\n\n")}</q>`;
    case "list":
      return n.children.map((item) => `<li>${node(item)}</li>`).join("\n");
    case "root":
    case "listItem":
      return n.children.map(node).join("\n\n");
    default:
      return "children" in n ? inline(n.children) : "";
  }
}

function inline(children: RootContent[]): string {
  return children.map(node).join("");
}

/** A small HTML-like renderer for tests: tags, escapes, length = string length. */
export const htmlRenderer: Renderer = {
  render: (tree) => node(tree),
  measure: (rendered) => rendered.length,
  plain: (tree) => toPlainText(tree),
};

/** Visible text of rendered test HTML: tags removed, escapes decoded. */
export function visibleOfHtml(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** True when every tag opened in `html` is closed in order, and no entity is cut. */
export function isBalanced(html: string): boolean {
  const stack: string[] = [];
  for (const match of html.matchAll(/<(\/?)([a-z]+)[^>]*>|&[a-z]*;?|[<>]/g)) {
    const token = match[0];
    if (token.startsWith("&")) {
      if (!/^&(amp|lt|gt);$/.test(token)) return false;
      continue;
    }
    if (token === "<" || token === ">") return false;
    const name = match[2] as string;
    if (name === "hr") continue;
    if (match[1] === "/") {
      if (stack.pop() !== name) return false;
    } else stack.push(name);
  }
  return stack.length === 0;
}
