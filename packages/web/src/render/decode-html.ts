/**
 * Sanitized HTML → what a person reads: the visible text and its formatting spans
 * (`ObservedFormat`, UTF-16 offsets), decoded from the sanitized fragment the page shows.
 * Blocks are separated by a blank line, list items and `<br>` by a line break; a list item
 * shows its marker (`• `, or its number and `. `), indented two spaces per nesting level, and
 * a list nested in an item starts on the next line, as a browser lays it out.
 */
import type { ObservedFormat, ObservedFormatKind } from "@outbox/core";
import { type ChildNode, type Element, isTag, isText } from "domhandler";
import { parseDocument } from "htmlparser2";

const SPANS: Record<string, ObservedFormatKind> = {
  strong: "bold",
  em: "italic",
  del: "strike",
  blockquote: "quote",
  pre: "pre",
  a: "link",
};
const BLOCKS = new Set(["p", "pre", "blockquote", "ul", "ol", "hr"]);

/** The visible text of an HTML fragment and its spans, in order of offset. */
export function decodeHtml(html: string): { text: string; formatting: ObservedFormat[] } {
  let text = "";
  const formatting: ObservedFormat[] = [];
  /** Start a block: at least `separator` (line breaks) after what came before. */
  const separate = (separator: string) => {
    if (text === "" || (/\n*$/.exec(text)?.[0].length ?? 0) >= separator.length) return;
    text = text.replace(/\n*$/, "") + separator;
  };
  const walk = (nodes: ChildNode[], inPre: boolean) => {
    for (const node of nodes) {
      if (isText(node)) text += node.data;
      else if (isTag(node)) element(node, inPre);
    }
  };
  /** The lists being walked, innermost last, each with the number of its next item. */
  const lists: Array<{ next: number | undefined }> = [];
  const element = (node: Element, inPre: boolean) => {
    const list = node.name === "ul" || node.name === "ol";
    if (BLOCKS.has(node.name)) separate(list && lists.length > 0 ? "\n" : "\n\n");
    else if (node.name === "li") {
      separate("\n");
      const current = lists.at(-1);
      if (current !== undefined) {
        text += `${"  ".repeat(lists.length - 1)}${current.next === undefined ? "•" : `${current.next++}.`} `;
      }
    } else if (node.name === "br") text += "\n";
    if (list) lists.push({ next: node.name === "ol" ? Number(node.attribs.start ?? 1) || 1 : undefined });
    const kind = spanKind(node, inPre);
    const start = text.length;
    walk(node.children, inPre || node.name === "pre");
    if (list) lists.pop();
    if (kind !== undefined && text.length > start) {
      const span: ObservedFormat = { kind, offset: start, length: text.length - start };
      const language = node.name === "pre" ? languageOf(node) : undefined;
      if (language !== undefined) span.language = language;
      if (kind === "link" && node.attribs.href !== undefined) span.url = node.attribs.href;
      formatting.push(span);
    }
  };
  walk(parseDocument(html).children, false);
  const visible = text.replace(/\s+$/, "");
  return {
    text: visible,
    formatting: formatting
      .map((span) => ({ ...span, length: Math.min(span.length, visible.length - span.offset) }))
      .filter((span) => span.length > 0)
      .sort((a, b) => a.offset - b.offset),
  };
}

function spanKind(node: Element, inPre: boolean): ObservedFormatKind | undefined {
  if (node.name === "code") return inPre ? undefined : "code";
  if (node.name === "span") return node.attribs.class === "ob-spoiler" ? "spoiler" : undefined;
  return SPANS[node.name];
}

function languageOf(pre: Element): string | undefined {
  const code = pre.children.find((child): child is Element => isTag(child) && child.name === "code");
  return /(?:^|\s)language-(\S+)/.exec(code?.attribs.class ?? "")?.[1];
}
