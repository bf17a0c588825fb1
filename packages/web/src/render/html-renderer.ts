/**
 * Markdown tree → HTML for the web inbox, from the mdast core parses. Every text value is
 * escaped; the only elements produced are `p br strong em del code pre blockquote ul ol li
 * hr a span.ob-spoiler`, and links only to `https:`, `http:` and `mailto:`. Raw HTML in the
 * reply is text. The result still goes through {@link sanitizeHtml} (defence in depth).
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeHtml } from "./escape.js";

const SAFE_LINK = /^(https?:|mailto:)/i;
const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** Render a Markdown tree (a whole reply or a chunk of one) as HTML. */
export function renderMarkdownHtml(tree: Root): string {
  return blocks(tree.children);
}

function blocks(children: RootContent[]): string {
  return children.map(node).join("");
}

function inline(children: PhrasingContent[] | RootContent[]): string {
  return children.map(node).join("");
}

function wrap(tag: string, content: string, attributes = ""): string {
  return content === "" ? "" : `<${tag}${attributes}>${content}</${tag}>`;
}

function node(n: Nodes): string {
  switch (n.type) {
    case "root":
      return blocks(n.children);
    case "paragraph":
      return wrap("p", inline(n.children));
    case "heading":
      return wrap("p", wrap("strong", inline(n.children)));
    case "thematicBreak":
      return "<hr>";
    case "blockquote":
      return wrap("blockquote", blocks(n.children));
    case "list":
      return list(n);
    case "listItem":
      return wrap("li", n.spread ? blocks(n.children) : n.children.map(tight).join(""));
    case "code":
      return codeBlock(n.value, n.lang);
    case "html":
    case "text":
      // A line break in a paragraph is a line break on the page too (chat text, not HTML prose).
      return escapeHtml(n.value).replace(/\n/g, "<br>");
    case "inlineCode":
      return wrap("code", escapeHtml(n.value));
    case "emphasis":
      return wrap("em", inline(n.children));
    case "strong":
      return wrap("strong", inline(n.children));
    case "delete":
      return wrap("del", inline(n.children));
    case "spoiler":
      return wrap("span", inline(n.children), ' class="ob-spoiler"');
    case "break":
      return "<br>";
    case "link":
      return link(n.url, inline(n.children));
    case "image":
      return link(n.url, escapeHtml(n.alt || n.url));
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children) : "value" in n ? escapeHtml(String(n.value)) : "";
  }
}

/** A tight list item's paragraphs render without `<p>`. */
function tight(child: RootContent): string {
  return child.type === "paragraph" ? inline(child.children) : node(child);
}

function link(url: string, content: string): string {
  if (!SAFE_LINK.test(url)) return content;
  return `<a href="${escapeHtml(url)}">${content || escapeHtml(url)}</a>`;
}

function codeBlock(value: string, lang: string | null | undefined): string {
  const code = escapeHtml(value);
  const language = lang && LANGUAGE.test(lang) ? ` class="language-${escapeHtml(lang)}"` : "";
  return `<pre><code${language}>${code}</code></pre>`;
}

function list(n: List): string {
  const start =
    n.ordered && n.start !== null && n.start !== undefined && n.start !== 1 ? ` start="${n.start}"` : "";
  return wrap(n.ordered ? "ol" : "ul", n.children.map(node).join(""), start);
}
