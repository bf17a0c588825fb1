/**
 * `formatted_body` as the emulator checks and reads it. The check is the spec's list of HTML
 * tags and attributes clients should permit (client-server API, "m.room.message msgtypes"):
 * the spec only recommends that clients strip the rest, and Synapse stores anything, but
 * Element drops a tag outside the list and shows its text bare, so this strict emulator
 * refuses it (`M_BAD_JSON` naming the tag or attribute) rather than let a renderer rely on it.
 *
 * The reading is what Element draws: the visible text (a list item with its marker, `• ` or
 * its number, indented two spaces per level; blocks apart by a blank line; `<br>` a new line),
 * the formatting spans over it, and its lines, headings drawn as headings.
 */
import type { ObservedFormat, ObservedFormatKind, ObservedLine } from "@outbox/core";
import { observedLines } from "@outbox/core";
import { type ChildNode, type Element, isTag, isText } from "domhandler";
import { parseDocument } from "htmlparser2";
import { badJson } from "./api-error.js";

/** Tags and their permitted attributes (spec v1.x; `strike` is the spec's older name of `s`). */
const ALLOWED: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    "del h1 h2 h3 h4 h5 h6 blockquote p ul li sup sub b i u strong em s strike hr br div table thead tbody tr th td caption pre details summary"
      .split(" ")
      .map((tag) => [tag, tag === "div" ? ["data-mx-maths"] : []]),
  ),
  font: ["data-mx-bg-color", "data-mx-color", "color"],
  span: ["data-mx-bg-color", "data-mx-color", "data-mx-spoiler", "data-mx-maths"],
  a: ["target", "href"],
  img: ["width", "height", "alt", "title", "src"],
  ol: ["start"],
  code: ["class"],
};
const LINK_SCHEMES = /^(https?|ftp|mailto|magnet):/i;

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
const BLOCKS = new Set([
  "p",
  "pre",
  "blockquote",
  "ul",
  "ol",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "div",
]);

/** Refuse `formatted_body` with a tag, attribute or link outside the spec's list. */
export function checkHtml(html: string): void {
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (!isTag(node)) continue;
      const allowed = ALLOWED[node.name];
      if (allowed === undefined)
        throw badJson(`formatted_body: <${node.name}> is not in the spec's HTML allow-list`);
      for (const attribute of Object.keys(node.attribs))
        if (!allowed.includes(attribute))
          throw badJson(`formatted_body: attribute ${attribute} of <${node.name}> is not permitted`);
      if (node.name === "a" && node.attribs.href !== undefined && !LINK_SCHEMES.test(node.attribs.href))
        throw badJson(`formatted_body: link scheme of ${node.attribs.href} is not permitted`);
      if (node.name === "img" && !(node.attribs.src ?? "").startsWith("mxc://"))
        throw badJson("formatted_body: <img> src must be an mxc:// URI");
      if (
        node.name === "code" &&
        node.attribs.class !== undefined &&
        !/^language-\S+$/.test(node.attribs.class)
      )
        throw badJson("formatted_body: <code> class must be language-*");
      walk(node.children);
    }
  };
  walk(parseDocument(html).children);
}

/** What Element shows of an HTML body. */
export interface DecodedHtml {
  /** Visible text. */
  text: string;
  /** Formatting spans over it. */
  formatting: ObservedFormat[];
  /** Its lines, headings drawn as headings. */
  lines: ObservedLine[];
}

/** Decode `formatted_body` as Element shows it. */
export function decodeHtml(html: string): DecodedHtml {
  let text = "";
  const formatting: ObservedFormat[] = [];
  const headings: number[] = [];
  const separate = (separator: string) => {
    if (text === "" || (/\n*$/.exec(text)?.[0].length ?? 0) >= separator.length) return;
    text = text.replace(/\n*$/, "") + separator;
  };
  const lists: Array<{ next: number | undefined }> = [];
  const walk = (nodes: ChildNode[], inPre: boolean) => {
    for (const node of nodes) {
      // A raw newline outside <pre> is read as a space, as HTML lays it out: whether a client
      // shows it as a break depends on its stylesheet, so line structure must be elements.
      if (isText(node)) text += inPre ? node.data : node.data.replace(/\r?\n/g, " ");
      else if (isTag(node)) element(node, inPre);
    }
  };
  const element = (node: Element, inPre: boolean) => {
    const list = node.name === "ul" || node.name === "ol";
    if (BLOCKS.has(node.name)) separate(list && lists.length > 0 ? "\n" : "\n\n");
    else if (node.name === "li") {
      separate("\n");
      const current = lists.at(-1);
      if (current !== undefined)
        text += `${"  ".repeat(lists.length - 1)}${current.next === undefined ? "•" : `${current.next++}.`} `;
    } else if (node.name === "br") text += "\n";
    if (/^h[1-6]$/.test(node.name)) headings.push(text.length);
    if (list) lists.push({ next: node.name === "ol" ? Number(node.attribs.start ?? 1) || 1 : undefined });
    const kind = spanKind(node, inPre);
    const start = text.length;
    walk(node.children, inPre || node.name === "pre");
    if (list) lists.pop();
    if (node.name === "hr") text += "———";
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

function spanKind(node: Element, inPre: boolean): ObservedFormatKind | undefined {
  if (node.name === "code") return inPre ? undefined : "code";
  if (node.name === "span") return node.attribs["data-mx-spoiler"] !== undefined ? "spoiler" : undefined;
  return SPANS[node.name];
}

function languageOf(pre: Element): string | undefined {
  const code = pre.children.find((child): child is Element => isTag(child) && child.name === "code");
  return /(?:^|\s)language-(\S+)/.exec(code?.attribs.class ?? "")?.[1];
}
