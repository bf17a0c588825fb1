/**
 * Markdown tree → Telegram HTML (`parse_mode: "HTML"`), from the mdast core parses, never
 * by regex substitution. Uses only the tags Telegram supports (`b i s code pre a
 * blockquote tg-spoiler`); headings become bold lines, lists `•`/`1.` lines, everything
 * else is escaped text. Telegram forbids entities inside code and nested blockquotes, so
 * those are flattened.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeAttribute, escapeHtml } from "./escape.js";

interface Context {
  /** Inside a blockquote already (Telegram cannot nest them). */
  quoted: boolean;
}

const SAFE_LINK = /^(https?:|tg:|mailto:)/i;
const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** Render a Markdown tree (a whole reply or a chunk of one) as Telegram HTML. */
export function renderTelegramHtml(tree: Root): string {
  return blocks(tree.children, "\n\n", { quoted: false });
}

function blocks(children: RootContent[], separator: string, ctx: Context): string {
  return children
    .map((child) => node(child, ctx))
    .filter((text) => text !== "")
    .join(separator);
}

function inline(children: PhrasingContent[] | RootContent[], ctx: Context): string {
  return children.map((child) => node(child, ctx)).join("");
}

function wrap(tag: string, content: string): string {
  return content === "" ? "" : `<${tag}>${content}</${tag}>`;
}

function node(n: Nodes, ctx: Context): string {
  switch (n.type) {
    case "root":
      return blocks(n.children, "\n\n", ctx);
    case "paragraph":
      return inline(n.children, ctx);
    case "heading":
      return wrap("b", inline(n.children, ctx));
    case "thematicBreak":
      return "———";
    case "blockquote": {
      const inner = blocks(n.children, "\n", { quoted: true });
      return ctx.quoted ? inner : wrap("blockquote", inner);
    }
    case "list":
      return list(n, ctx);
    case "listItem":
      return blocks(n.children, "\n", ctx);
    case "code":
      return codeBlock(n.value, n.lang);
    case "html":
    case "text":
      return escapeHtml(n.value);
    case "inlineCode":
      return wrap("code", escapeHtml(n.value));
    case "emphasis":
      return wrap("i", inline(n.children, ctx));
    case "strong":
      return wrap("b", inline(n.children, ctx));
    case "delete":
      return wrap("s", inline(n.children, ctx));
    case "spoiler":
      return wrap("tg-spoiler", inline(n.children, ctx));
    case "break":
      return "\n";
    case "link":
      return link(n.url, inline(n.children, ctx));
    case "image":
      return link(n.url, escapeHtml(n.alt || n.url));
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children, ctx) : "value" in n ? escapeHtml(String(n.value)) : "";
  }
}

function link(url: string, content: string): string {
  if (!SAFE_LINK.test(url)) return content;
  return `<a href="${escapeAttribute(url)}">${content || escapeHtml(url)}</a>`;
}

function codeBlock(value: string, lang: string | null | undefined): string {
  const code = escapeHtml(value);
  if (code === "") return "";
  if (lang && LANGUAGE.test(lang)) return `<pre><code class="language-${lang}">${code}</code></pre>`;
  return `<pre>${code}</pre>`;
}

function list(n: List, ctx: Context): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}. ` : "• ";
      const body = node(item, ctx);
      return marker + body.replace(/\n/g, `\n${" ".repeat(marker.length)}`);
    })
    .join("\n");
}
