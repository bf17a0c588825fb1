/**
 * The reference platform's markup: a small, strict HTML dialect (`b i s code pre a
 * blockquote`, entities `&lt; &gt; &amp; &quot;`), like Telegram's. The renderer writes
 * it from the mdast tree; the emulator parses it and refuses anything malformed.
 */
import type { Renderer } from "@outbox/core";
import type { Nodes, Root } from "mdast";

/** The tags the reference platform understands. */
const TAGS = new Set(["b", "i", "s", "code", "pre", "a", "blockquote"]);
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** Visible text of reference markup; throws a "can't parse" Error on malformed markup. */
export function parseReferenceMarkup(markup: string): string {
  const open: string[] = [];
  let visible = "";
  const token = /<(\/?)([a-z]+)(?:\s+[a-z-]+="[^"<>]*")*\s*>|&([a-z]+);|[<>&]/g;
  let last = 0;
  for (let match = token.exec(markup); match; match = token.exec(markup)) {
    visible += markup.slice(last, match.index);
    last = token.lastIndex;
    const [whole, closing, tag, entity] = match;
    if (entity !== undefined) {
      const decoded = ENTITIES[entity];
      if (decoded === undefined) throw new Error(`can't parse entities: unknown entity &${entity};`);
      visible += decoded;
    } else if (tag !== undefined && TAGS.has(tag)) {
      if (!closing) open.push(tag);
      else if (open.pop() !== tag) throw new Error(`can't parse entities: unexpected end tag </${tag}>`);
    } else throw new Error(`can't parse entities: unsupported "${whole}" at byte ${match.index}`);
  }
  if (open.length > 0) throw new Error(`can't parse entities: unclosed <${open.join("><")}>`);
  return visible + markup.slice(last);
}

/** The reference renderer: mdast → reference markup, plain text for the fallback. */
export const referenceRenderer: Renderer = {
  render: (tree: Root) => blocks(tree.children, html),
  measure: (rendered: string) => parseReferenceMarkup(rendered).length,
  plain: (tree: Root) => blocks(tree.children, plain),
};

// --- internal ---

/** How to write markup: the HTML dialect, or nothing (plain text). */
interface Markup {
  escape(text: string): string;
  wrap(tag: string, inner: string, href?: string): string;
}

const html: Markup = {
  escape: (text) =>
    text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
  wrap: (tag, inner, href) =>
    `<${tag}${href === undefined ? "" : ` href="${html.escape(href)}"`}>${inner}</${tag}>`,
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
      return m.wrap("pre", m.wrap("code", m.escape(node.value)));
    case "blockquote":
      return m.wrap("blockquote", blocks(node.children, m));
    case "list":
      return node.children
        .map((item, i) => `${node.ordered ? `${(node.start ?? 1) + i}.` : "•"} ${blocks(item.children, m)}`)
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
    case "inlineCode":
      return m.wrap("code", m.escape(node.value));
    case "link":
      return m.wrap("a", inline(node.children, m), node.url);
    case "break":
      return "\n";
    case "image":
      return m.escape(node.alt ?? "");
    default:
      if ("children" in node) return inline(node.children as Nodes[], m);
      return "value" in node ? m.escape(String(node.value)) : "";
  }
}
