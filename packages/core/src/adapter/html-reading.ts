/**
 * The emulator kit's reader of lenient HTML, as a browser or a chat client lays it out (the
 * web inbox's page, Element's `formatted_body`): parsed HTML (htmlparser2's `parseDocument`,
 * passed in so core needs no HTML parser) → the visible text, its formatting spans and its
 * lines. Blocks are apart by a blank line, list items and `<br>` by a line break, and text
 * after a block starts a new line; a list item shows its marker (`• `, or its number and
 * `. `), indented two spaces per nesting level; a raw newline outside `<pre>` is a space, as
 * HTML lays it out (so line structure must be elements). Whitespace at the start or end of a
 * line shows as nothing, as a browser collapses it: the newlines a renderer writes between
 * block tags (markdown-it's `<ul>\n<li>`) add no space and no blank line, and a loose list
 * item's first paragraph stays on its marker's line. Headings are `heading` lines.
 */

import type { ObservedFormat, ObservedFormatKind, ObservedLine } from "./observed.js";
import { observedLines } from "./observed-lines.js";

/** A parsed HTML node, as far as it is read (domhandler's nodes are these). */
export interface HtmlNode {
  /** `text`, `tag` (also `script`, `style`), `comment`, … */
  type: string;
  /** A text node's text. */
  data?: string;
  /** An element's tag name. */
  name?: string;
  /** An element's attributes. */
  attribs?: Record<string, string>;
  /** An element's children. */
  children?: HtmlNode[];
}

/** What differs between the readers of {@link readHtml}. */
export interface HtmlReading {
  /** Whether a `span` with these attributes hides a spoiler (`data-mx-spoiler`, a class). */
  spoiler(attribs: Record<string, string>): boolean;
  /** Text an `<hr>` shows as (`———` where an observer should see the rule; `""` for none). */
  rule: string;
}

/** What a person reads of an HTML fragment. */
export interface ReadHtml {
  /** Visible text. */
  text: string;
  /** Formatting spans over it, in order of offset. */
  formatting: ObservedFormat[];
  /** Its lines, headings as `heading`. */
  lines: ObservedLine[];
}

const SPANS: Record<string, ObservedFormatKind> = {
  strong: "bold",
  b: "bold",
  em: "italic",
  i: "italic",
  del: "strike",
  s: "strike",
  strike: "strike",
  blockquote: "quote",
  pre: "pre",
  a: "link",
};
const BLOCKS = new Set("p pre blockquote ul ol hr h1 h2 h3 h4 h5 h6 div".split(" "));
const ELEMENTS = new Set(["tag", "script", "style"]);

/** Read parsed HTML (`parseDocument(html).children`) as `reading` lays it out. */
export function readHtml(nodes: readonly HtmlNode[], reading: HtmlReading): ReadHtml {
  let text = "";
  /** A block just ended: the next visible content starts a new line. */
  let afterBlock = false;
  const formatting: ObservedFormat[] = [];
  const headings: number[] = [];
  /** A list item's marker was just written: its first block starts on the marker's line. */
  let atMarker = false;
  /** Start a block: at least `separator` (line breaks) after what came before. */
  const separate = (separator: string) => {
    afterBlock = false;
    if (atMarker) return;
    // Spaces before a line break show as nothing.
    text = text.replace(/[ \t]+(\n*)$/, "$1");
    if (text === "" || (/\n*$/.exec(text)?.[0].length ?? 0) >= separator.length) return;
    text = text.replace(/\n*$/, "") + separator;
  };
  /** The lists being walked, innermost last, each with the number of its next item. */
  const lists: Array<{ next: number | undefined }> = [];
  const walk = (children: readonly HtmlNode[], inPre: boolean) => {
    for (const node of children) {
      if (node.type === "text") {
        let data = inPre ? (node.data ?? "") : (node.data ?? "").replace(/\r?\n/g, " ");
        if (afterBlock && data.trim() === "") continue;
        if (afterBlock) separate("\n");
        // At the start of a line (or right after a marker) leading spaces show as nothing.
        if (!inPre && (atMarker || text === "" || text.endsWith("\n"))) data = data.replace(/^[ \t]+/, "");
        if (data === "") continue;
        atMarker = false;
        text += data;
      } else if (ELEMENTS.has(node.type)) element(node, inPre);
    }
  };
  const element = (node: HtmlNode, inPre: boolean) => {
    const name = node.name ?? "";
    const attribs = node.attribs ?? {};
    const list = name === "ul" || name === "ol";
    const block = BLOCKS.has(name);
    if (block) separate(list && lists.length > 0 ? "\n" : "\n\n");
    else if (name === "li") {
      separate("\n");
      const current = lists.at(-1);
      if (current !== undefined) {
        text += `${"  ".repeat(lists.length - 1)}${current.next === undefined ? "•" : `${current.next++}.`} `;
        atMarker = true;
      }
    } else if (name === "br") {
      if (afterBlock) separate("\n");
      atMarker = false;
      text += "\n";
    } else if (afterBlock && visibleText(node)) separate("\n");
    if (/^h[1-6]$/.test(name)) headings.push(text.length);
    if (list) lists.push({ next: name === "ol" ? Number(attribs.start ?? 1) || 1 : undefined });
    const kind = spanKind(name, attribs, inPre, reading);
    const start = text.length;
    walk(node.children ?? [], inPre || name === "pre");
    if (list) lists.pop();
    if (name === "hr") text += reading.rule;
    if (kind !== undefined && text.length > start) {
      const span: ObservedFormat = { kind, offset: start, length: text.length - start };
      const language = name === "pre" ? languageOf(node) : undefined;
      if (language !== undefined) span.language = language;
      if (kind === "link" && attribs.href !== undefined) span.url = attribs.href;
      formatting.push(span);
    }
    if (block) afterBlock = true;
  };
  walk(nodes, false);
  const visible = text.replace(/\s+$/, "");
  const spans = formatting
    .map((span) => ({ ...span, length: Math.min(span.length, visible.length - span.offset) }))
    .filter((span) => span.length > 0)
    .sort((a, b) => a.offset - b.offset);
  const lines = observedLines(visible, spans);
  let offset = 0;
  for (const [index, raw] of visible.split("\n").entries()) {
    const line = lines[index];
    if (line !== undefined && line.kind === "text" && headings.includes(offset)) line.kind = "heading";
    offset += raw.length + 1;
  }
  return { text: visible, formatting: spans, lines };
}

function spanKind(
  name: string,
  attribs: Record<string, string>,
  inPre: boolean,
  reading: HtmlReading,
): ObservedFormatKind | undefined {
  if (name === "code") return inPre ? undefined : "code";
  if (name === "span") return reading.spoiler(attribs) ? "spoiler" : undefined;
  return SPANS[name];
}

/** Whether an element holds any text that is not whitespace. */
function visibleText(node: HtmlNode): boolean {
  return (node.children ?? []).some((child) =>
    child.type === "text" ? (child.data ?? "").trim() !== "" : visibleText(child),
  );
}

function languageOf(pre: HtmlNode): string | undefined {
  const code = pre.children?.find((child) => ELEMENTS.has(child.type) && child.name === "code");
  return /(?:^|\s)language-(\S+)/.exec(code?.attribs?.class ?? "")?.[1];
}
