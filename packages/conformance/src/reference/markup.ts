/**
 * The reference platform's markup: a small, strict HTML dialect (`b i s code pre a
 * blockquote spoiler`, `<pre><code class="language-x">` for a code language, entities
 * `&lt; &gt; &amp; &quot;`), like Telegram's. The renderer writes it from the mdast tree
 * (links judged by core's untrusted-text policy); the emulator parses it, refuses anything
 * malformed and decodes the formatting spans.
 */
import { judgeLinks, type ObservedFormat, type ObservedFormatKind, type Renderer } from "@outbox/core";
import { decodeStrictHtml } from "@outbox/core/testing";
import type { Nodes, Root } from "mdast";

/** The tags the reference platform understands, and the span each shows. */
const TAGS: Record<string, ObservedFormatKind> = {
  b: "bold",
  i: "italic",
  s: "strike",
  code: "code",
  pre: "pre",
  a: "link",
  blockquote: "quote",
  spoiler: "spoiler",
};

/** Visible text and formatting spans of reference markup. */
export interface ParsedReferenceMarkup {
  /** What the platform shows. */
  text: string;
  /** Formatting spans over `text`, in order of offset. */
  formatting: ObservedFormat[];
}

/** Visible text of reference markup; throws a "can't parse" Error on malformed markup. */
export function parseReferenceMarkup(markup: string): string {
  return parseReferenceSpans(markup).text;
}

/** Visible text and formatting spans of reference markup (core's strict HTML decoder); throws like {@link parseReferenceMarkup}. */
export function parseReferenceSpans(markup: string): ParsedReferenceMarkup {
  return decodeStrictHtml(markup, TAGS);
}

/** The reference renderer: mdast → reference markup, plain text for the fallback. */
export const referenceRenderer: Renderer = {
  render: (tree: Root) => blocks(judgeLinks(tree).children, html),
  measure: (rendered: string) => parseReferenceMarkup(rendered).length,
  plain: (tree: Root) => blocks(judgeLinks(tree).children, plain),
};

// --- internal ---

/** How to write markup: the HTML dialect, or nothing (plain text). */
interface Markup {
  escape(text: string): string;
  wrap(tag: string, inner: string, attrs?: Record<string, string>): string;
}

const html: Markup = {
  escape: (text) =>
    text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
  wrap: (tag, inner, attrs = {}) =>
    `<${tag}${Object.entries(attrs)
      .map(([name, value]) => ` ${name}="${html.escape(value)}"`)
      .join("")}>${inner}</${tag}>`,
};

const plain: Markup = { escape: (text) => text, wrap: (_tag, inner) => inner };

function blocks(nodes: Nodes[], m: Markup): string {
  return nodes
    .map((node) => block(node, m))
    .filter((text) => text !== "")
    .join("\n\n");
}

function block(node: Nodes, m: Markup): string {
  switch (node.type) {
    case "paragraph":
      return inline(node.children, m);
    case "heading":
      return m.wrap("b", inline(node.children, m));
    case "code":
      return m.wrap(
        "pre",
        m.wrap("code", m.escape(node.value), node.lang ? { class: `language-${node.lang}` } : {}),
      );
    case "blockquote":
      return m.wrap("blockquote", blocks(node.children, m));
    case "list":
      return node.children
        .map((item, i) => {
          const marker = `${node.ordered ? `${(node.start ?? 1) + i}.` : "•"} `;
          // An item's blocks are its lines, continuation lines indented under the marker.
          const body = item.children.map((child) => block(child, m)).filter((text) => text !== "");
          return marker + body.join("\n").replace(/\n/g, `\n${" ".repeat(marker.length)}`);
        })
        .join("\n");
    case "thematicBreak":
      return "———";
    case "definition":
      return "";
    default:
      return inline([node], m);
  }
}

function inline(nodes: Nodes[], m: Markup): string {
  return nodes.map((node) => span(node, m)).join("");
}

function span(node: Nodes, m: Markup): string {
  switch (node.type) {
    case "strong":
      return m.wrap("b", inline(node.children, m));
    case "emphasis":
      return m.wrap("i", inline(node.children, m));
    case "delete":
      return m.wrap("s", inline(node.children, m));
    case "spoiler":
      return m.wrap("spoiler", inline(node.children, m));
    case "inlineCode":
      return m.wrap("code", m.escape(node.value));
    case "link":
      return m.wrap("a", inline(node.children, m), { href: node.url });
    case "break":
      return "\n";
    default:
      if ("children" in node) return inline(node.children as Nodes[], m);
      return "value" in node ? m.escape(String(node.value)) : "";
  }
}
