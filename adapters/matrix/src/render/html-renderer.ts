/**
 * Markdown tree → Matrix `formatted_body` (`org.matrix.custom.html`), from the mdast core
 * parses. Only tags and attributes of the spec's recommended allow-list are written
 * (`p br h1–h6 strong em del code pre blockquote ul ol[start] li hr a[href] span[data-mx-spoiler]`,
 * `code[class=language-*]`), links only to the schemes it lists; every text value is escaped.
 * Line structure is carried by elements, never by raw newlines, which HTML collapses: a
 * paragraph is `<p>`, a line break inside it `<br>`.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeHtml } from "./escape.js";

/** Link schemes the spec lets `a[href]` use. */
const SAFE_LINK = /^(https?:|ftp:|mailto:|magnet:)/i;
const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** Render a Markdown tree (a whole reply or a chunk of one) as Matrix HTML. */
export function renderMatrixHtml(tree: Root): string {
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
      return wrap(`h${n.depth}`, inline(n.children));
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
      return wrap("span", inline(n.children), " data-mx-spoiler");
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

/** A tight list item's paragraphs render without `<p>`; blocks after the first start a new line. */
function tight(child: RootContent, index: number): string {
  if (child.type !== "paragraph") return node(child);
  return (index > 0 ? "<br>" : "") + inline(child.children);
}

function link(url: string, content: string): string {
  if (!SAFE_LINK.test(url)) return content;
  return `<a href="${escapeHtml(url)}">${content || escapeHtml(url)}</a>`;
}

function codeBlock(value: string, lang: string | null | undefined): string {
  const language = lang && LANGUAGE.test(lang) ? ` class="language-${escapeHtml(lang)}"` : "";
  return `<pre><code${language}>${escapeHtml(value)}</code></pre>`;
}

function list(n: List): string {
  const start =
    n.ordered && n.start !== null && n.start !== undefined && n.start !== 1 ? ` start="${n.start}"` : "";
  return wrap(n.ordered ? "ol" : "ul", n.children.map(node).join(""), start);
}
