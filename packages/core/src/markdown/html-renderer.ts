/**
 * Markdown tree → HTML in a small dialect (Matrix's `formatted_body`, the web inbox), from
 * the mdast core parses. The only elements written are `p br strong em del code pre blockquote
 * ul ol[start] li hr a[href]`, `code[class=language-*]`, the dialect's headings and its
 * spoiler `span`; links judged by the untrusted-text policy first (untrusted-links.ts: only
 * `http:`, `https:` and `mailto:` targets, labels that do not mislead); every text value is
 * escaped, so raw HTML in a reply is text. Line structure is carried by elements, never by raw newlines,
 * which HTML collapses: a paragraph is `<p>`, a line break inside it `<br>`.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeHtml } from "./escape-html.js";
import { judgeLinks } from "./untrusted-links.js";

/** What differs between the HTML dialects {@link createHtmlRenderer} writes. */
export interface HtmlDialect {
  /** A heading of `depth` (1–6) around its rendered content: `<h2>…</h2>`, or `<p><strong>…</strong></p>` where headings are not allowed. */
  heading(depth: number, content: string): string;
  /** Attributes, with a leading space, of the `span` that hides a spoiler (` data-mx-spoiler`, ` class="spoiler"`). */
  spoilerAttributes: string;
}

const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** A renderer of Markdown trees (a whole reply or a chunk of one) into `dialect`. */
export function createHtmlRenderer(dialect: HtmlDialect): (tree: Root) => string {
  const blocks = (children: RootContent[]): string => joined(children, node);
  const inline = (children: PhrasingContent[] | RootContent[]): string => joined(children, node);
  /** A tight list item's paragraphs render without `<p>` (a block after one starts a new line by itself). */
  const tight = (child: RootContent): string =>
    child.type === "paragraph" ? inline(child.children) : node(child);
  const link = (url: string, content: string): string => `<a href="${escapeHtml(url)}">${content}</a>`;
  const list = (n: List): string => {
    const start =
      n.ordered && n.start !== null && n.start !== undefined && n.start !== 1 ? ` start="${n.start}"` : "";
    return wrap(n.ordered ? "ol" : "ul", joined(n.children, node), start);
  };
  function node(n: Nodes): string {
    switch (n.type) {
      case "root":
        return blocks(n.children);
      case "paragraph":
        return wrap("p", inline(n.children));
      case "heading": {
        const content = inline(n.children);
        return content === "" ? "" : dialect.heading(n.depth, content);
      }
      case "thematicBreak":
        return "<hr>";
      case "blockquote":
        return wrap("blockquote", blocks(n.children));
      case "list":
        return list(n);
      case "listItem":
        return wrap("li", n.spread ? blocks(n.children) : joined(n.children, tight));
      case "code":
        return codeBlock(n.value, n.lang);
      case "html":
      case "text":
        return lines(escapeHtml(n.value));
      case "inlineCode":
        return wrap("code", escapeHtml(n.value));
      case "emphasis":
        return wrap("em", inline(n.children));
      case "strong":
        return wrap("strong", inline(n.children));
      case "delete":
        return wrap("del", inline(n.children));
      case "spoiler":
        return wrap("span", inline(n.children), dialect.spoilerAttributes);
      case "break":
        return "<br>";
      case "link":
        return link(n.url, inline(n.children));
      case "definition":
        return "";
      default:
        return "children" in n ? inline(n.children) : "value" in n ? escapeHtml(String(n.value)) : "";
    }
  }
  return (tree) => blocks(judgeLinks(tree).children);
}

/** Each node rendered, concatenated (no array of the pieces: a paragraph may have 250,000). */
function joined<T>(nodes: readonly T[], render: (node: T) => string): string {
  let out = "";
  for (const n of nodes) out += render(n);
  return out;
}

/** Line breaks in text as `<br>`. */
function lines(text: string): string {
  return text.includes("\n") ? text.replace(/\n/g, "<br>") : text;
}

function wrap(tag: string, content: string, attributes = ""): string {
  return content === "" ? "" : `<${tag}${attributes}>${content}</${tag}>`;
}

function codeBlock(value: string, lang: string | null | undefined): string {
  const language = lang && LANGUAGE.test(lang) ? ` class="language-${escapeHtml(lang)}"` : "";
  return `<pre><code${language}>${escapeHtml(value)}</code></pre>`;
}
