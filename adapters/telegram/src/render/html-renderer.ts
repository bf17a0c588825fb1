/**
 * Markdown tree → Telegram HTML (`parse_mode: "HTML"`), from the mdast core parses, never
 * by regex substitution. Uses only the tags Telegram supports (`b i s code pre a
 * blockquote tg-spoiler`); headings become bold lines, lists `•`/`1.` lines, everything
 * else is escaped text. Links are judged by core's untrusted-text policy first: no `tg:`
 * link (a mention, a login token, a proxy) is ever live, no label misleads. Telegram forbids entities inside code and nested blockquotes, so
 * those are flattened.
 *
 * One walk builds the HTML and counts its visible length as Telegram does (UTF-16 units
 * of the text after entity parsing): escaped text counts as the text it escapes, tags
 * count nothing, so the planner never re-reads the HTML to measure it.
 */
import { judgeLinks } from "@outbox/core";
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeAttribute, escapeHtml } from "./escape.js";

/** Rendered HTML and its visible length. */
export interface MeasuredHtml {
  /** Telegram HTML. */
  text: string;
  /** Visible UTF-16 length (equal to `visibleLength(text)`). */
  length: number;
}

/** The walk's state: the visible length counted so far, and whether inside a blockquote. */
interface Walk {
  length: number;
  /** Inside a blockquote already (Telegram cannot nest them). */
  quoted: boolean;
}

const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** Render a Markdown tree (a whole reply or a chunk of one) as Telegram HTML. */
export function renderTelegramHtml(tree: Root): string {
  return blocks(judgeLinks(tree).children, "\n\n", { length: 0, quoted: false });
}

/** Render a tree as Telegram HTML with its visible length, in one walk. */
export function renderTelegramHtmlMeasured(tree: Root): MeasuredHtml {
  const walk: Walk = { length: 0, quoted: false };
  const text = blocks(judgeLinks(tree).children, "\n\n", walk);
  return { text, length: walk.length };
}

/** Blocks joined by `separator`, blocks that render empty left out. */
function blocks(children: readonly RootContent[], separator: string, walk: Walk): string {
  let out = "";
  for (const child of children) {
    const text = node(child, walk);
    if (text === "") continue;
    if (out !== "") {
      out += separator;
      walk.length += separator.length;
    }
    out += text;
  }
  return out;
}

function inline(children: readonly (PhrasingContent | RootContent)[], walk: Walk): string {
  let out = "";
  for (const child of children) out += node(child, walk);
  return out;
}

function wrap(tag: string, content: string): string {
  return content === "" ? "" : `<${tag}>${content}</${tag}>`;
}

/** Escaped text, counted as the text it shows. */
function text(value: string, walk: Walk): string {
  walk.length += value.length;
  return escapeHtml(value);
}

function node(n: Nodes, walk: Walk): string {
  switch (n.type) {
    case "root":
      return blocks(n.children, "\n\n", walk);
    case "paragraph":
      return inline(n.children, walk);
    case "heading":
      return wrap("b", inline(n.children, walk));
    case "thematicBreak":
      walk.length += 3;
      return "———";
    case "blockquote": {
      if (walk.quoted) return blocks(n.children, "\n", walk);
      walk.quoted = true;
      const inner = blocks(n.children, "\n", walk);
      walk.quoted = false;
      return wrap("blockquote", inner);
    }
    case "list":
      return list(n, walk);
    case "listItem":
      return blocks(n.children, "\n", walk);
    case "code":
      return codeBlock(n.value, n.lang, walk);
    case "html":
    case "text":
      return text(n.value, walk);
    case "inlineCode":
      return wrap("code", text(n.value, walk));
    case "emphasis":
      return wrap("i", inline(n.children, walk));
    case "strong":
      return wrap("b", inline(n.children, walk));
    case "delete":
      return wrap("s", inline(n.children, walk));
    case "spoiler":
      return wrap("tg-spoiler", inline(n.children, walk));
    case "break":
      walk.length += 1;
      return "\n";
    case "link":
      return `<a href="${escapeAttribute(n.url)}">${inline(n.children, walk)}</a>`;
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children, walk) : "value" in n ? text(String(n.value), walk) : "";
  }
}

function codeBlock(value: string, lang: string | null | undefined, walk: Walk): string {
  if (value === "") return "";
  const code = text(value, walk);
  if (lang && LANGUAGE.test(lang)) return `<pre><code class="language-${lang}">${code}</code></pre>`;
  return `<pre>${code}</pre>`;
}

function list(n: List, walk: Walk): string {
  const start = n.start ?? 1;
  let out = "";
  n.children.forEach((item, index) => {
    const marker = n.ordered ? `${start + index}. ` : "• ";
    const body = node(item, walk);
    if (index > 0) {
      out += "\n";
      walk.length += 1;
    }
    // Continuation lines are indented under the marker; each visible line break gains it.
    walk.length += marker.length * (1 + visibleLineBreaks(body));
    out += marker + (body.includes("\n") ? body.replace(/\n/g, `\n${" ".repeat(marker.length)}`) : body);
  });
  return out;
}

/** Line breaks of rendered HTML outside tags (what Telegram shows). */
function visibleLineBreaks(html: string): number {
  let count = 0;
  for (let i = html.indexOf("\n"); i >= 0; i = html.indexOf("\n", i + 1)) count += 1;
  if (count === 0 || !html.includes("<")) return count;
  count = 0;
  for (let i = 0; i < html.length; i += 1) {
    const c = html.charCodeAt(i);
    if (c === 60 /* < */) {
      const end = html.indexOf(">", i + 1);
      if (end >= 0) i = end;
    } else if (c === 10) count += 1;
  }
  return count;
}
