/**
 * The reference platform's markup: a small, strict HTML dialect (`b i s code pre a
 * blockquote spoiler`, `<pre><code class="language-x">` for a code language, entities
 * `&lt; &gt; &amp; &quot;`), like Telegram's. The renderer writes it from the mdast tree;
 * the emulator parses it, refuses anything malformed and decodes the formatting spans.
 */
import type { ObservedFormat, ObservedFormatKind, Renderer } from "@outbox/core";
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
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

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

/** Visible text and formatting spans of reference markup; throws like {@link parseReferenceMarkup}. */
export function parseReferenceSpans(markup: string): ParsedReferenceMarkup {
  const open: Array<{ tag: string; start: number; attrs: Record<string, string> }> = [];
  const formatting: ObservedFormat[] = [];
  let visible = "";
  const token = /<(\/?)([a-z]+)((?:\s+[a-z-]+="[^"<>]*")*)\s*>|&([a-z]+);|[<>&]/g;
  let last = 0;
  for (let match = token.exec(markup); match; match = token.exec(markup)) {
    visible += markup.slice(last, match.index);
    last = token.lastIndex;
    const [whole, closing, tag, attrs, entity] = match;
    if (entity !== undefined) visible += decodeEntity(entity);
    else if (tag !== undefined && tag in TAGS) {
      if (!closing) {
        open.push({ tag, start: visible.length, attrs: attributes(attrs ?? "") });
        continue;
      }
      const top = open.pop();
      if (top?.tag !== tag) throw new Error(`can't parse entities: unexpected end tag </${tag}>`);
      const span = spanOf(top, visible.length, open.at(-1));
      if (span) formatting.push(span);
    } else throw new Error(`can't parse entities: unsupported "${whole}" at byte ${match.index}`);
  }
  if (open.length > 0)
    throw new Error(`can't parse entities: unclosed <${open.map((o) => o.tag).join("><")}>`);
  formatting.sort((a, b) => a.offset - b.offset);
  return { text: visible + markup.slice(last), formatting };
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

function decodeEntity(name: string): string {
  const decoded = ENTITIES[name];
  if (decoded === undefined) throw new Error(`can't parse entities: unknown entity &${name};`);
  return decoded;
}

/** `name="value"` pairs of a tag, values decoded. */
function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [, name, value] of source.matchAll(/([a-z-]+)="([^"<>]*)"/g))
    out[name as string] = (value as string).replace(/&([a-z]+);/g, (_, entity: string) =>
      decodeEntity(entity),
    );
  return out;
}

/**
 * The span a closed tag shows; `undefined` when empty, or for `<code>` directly inside
 * `<pre>`, whose `class="language-x"` becomes the language of the `pre` span instead.
 */
function spanOf(
  tag: { tag: string; start: number; attrs: Record<string, string> },
  end: number,
  parent: { tag: string; attrs: Record<string, string> } | undefined,
): ObservedFormat | undefined {
  if (tag.tag === "code" && parent?.tag === "pre") {
    const language = /^language-(.+)$/.exec(tag.attrs.class ?? "")?.[1];
    if (language !== undefined) parent.attrs.language = language;
    return undefined;
  }
  if (end === tag.start) return undefined;
  const kind = TAGS[tag.tag] as ObservedFormatKind;
  const { language, href } = tag.attrs;
  return {
    kind,
    offset: tag.start,
    length: end - tag.start,
    ...(kind === "pre" && language !== undefined ? { language } : {}),
    ...(kind === "link" && href !== undefined ? { url: href } : {}),
  };
}

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
    case "image":
      return m.escape(node.alt ?? "");
    default:
      if ("children" in node) return inline(node.children as Nodes[], m);
      return "value" in node ? m.escape(String(node.value)) : "";
  }
}
