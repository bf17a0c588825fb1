/**
 * The visible text of a rendered `.ob-text` and its formatting spans, read the way a browser
 * lays the HTML out: whitespace collapses outside `pre`, blocks start on a new line (a
 * paragraph leaves a blank line), list items show their marker (indented two spaces per
 * nesting level, a nested list starting on the item's next line), elements the browser does not
 * render are left out. Spans come from the elements the sanitizer lets through.
 */
import type { ObservedFormat, ObservedFormatKind } from "@outbox/core";
import { type DomElement, type DomNode, hasClass, isElement } from "./snapshot.js";

/** Text and spans of one rendered text block. */
export interface RichText {
  /** What a person reads. */
  text: string;
  /** Formatting spans over {@link RichText.text}, by offset. */
  formatting: ObservedFormat[];
}

/** Blocks and how many line breaks separate them from what is around them. */
const BLOCK_BREAKS: Record<string, number> = {
  p: 2,
  pre: 2,
  blockquote: 2,
  ul: 2,
  ol: 2,
  h1: 2,
  h2: 2,
  h3: 2,
  h4: 2,
  h5: 2,
  h6: 2,
  table: 2,
  hr: 2,
  div: 1,
  li: 1,
  tr: 1,
  figure: 1,
  figcaption: 1,
  section: 1,
  article: 1,
};

/** What each formatting element is, `undefined` for the rest. */
function spanKind(element: DomElement, inPre: boolean): ObservedFormatKind | undefined {
  switch (element.tag) {
    case "strong":
    case "b":
      return "bold";
    case "em":
    case "i":
      return "italic";
    case "del":
    case "s":
    case "strike":
      return "strike";
    case "code":
      return inPre ? undefined : "code";
    case "pre":
      return "pre";
    case "a":
      return element.attrs.href === undefined ? undefined : "link";
    case "blockquote":
      return "quote";
    case "span":
      return hasClass(element, "ob-spoiler") ? "spoiler" : undefined;
    default:
      return undefined;
  }
}

/** The code language of a `pre`: its `code` child's `language-x` class. */
function preLanguage(pre: DomElement): string | undefined {
  const code = pre.children.find((child): child is DomElement => isElement(child) && child.tag === "code");
  const match = /(?:^|\s)language-(\S+)/.exec(code?.attrs.class ?? "");
  return match?.[1];
}

interface OpenSpan {
  span: ObservedFormat;
  started: boolean;
}

/** Read the visible text and spans of a rendered element. */
export function readRichText(root: DomElement): RichText {
  let out = "";
  let pendingBreaks = 0;
  const open: OpenSpan[] = [];
  const spans: ObservedFormat[] = [];

  const emit = (text: string, verbatim: boolean): void => {
    let chunk = verbatim ? text : text.replace(/[ \t\n\r\f]+/g, " ");
    if (chunk === "") return;
    if (!verbatim && (out === "" || pendingBreaks > 0 || /[ \n]$/.test(out))) chunk = chunk.replace(/^ /, "");
    if (chunk === "") return;
    if (pendingBreaks > 0 && out !== "") {
      out = out.replace(/ +$/, "");
      const have = /\n*$/.exec(out)?.[0].length ?? 0;
      out += "\n".repeat(Math.max(0, pendingBreaks - have));
    }
    pendingBreaks = 0;
    for (const entry of open)
      if (!entry.started) {
        entry.span.offset = out.length;
        entry.started = true;
      }
    out += chunk;
  };

  /** `depth`: how many lists enclose the node. */
  const walk = (node: DomNode, inPre: boolean, listIndex: number | undefined, depth: number): void => {
    if (!isElement(node)) {
      emit(node.text, inPre);
      return;
    }
    if (!node.rendered) return;
    const list = node.tag === "ul" || node.tag === "ol";
    // A list nested in an item has no margin: it starts on the item's next line.
    const breaks = list && depth > 0 ? 1 : (BLOCK_BREAKS[node.tag] ?? 0);
    if (breaks > 0) pendingBreaks = Math.max(pendingBreaks, breaks);
    if (node.tag === "br") {
      emit("\n", true);
      return;
    }
    const kind = spanKind(node, inPre);
    let entry: OpenSpan | undefined;
    if (kind) {
      const span: ObservedFormat = { kind, offset: 0, length: 0 };
      if (kind === "link") span.url = node.attrs.href;
      if (kind === "pre") {
        const language = preLanguage(node);
        if (language) span.language = language;
      }
      entry = { span, started: false };
      open.push(entry);
    }
    if (node.tag === "li" && listIndex !== undefined)
      emit(`${"  ".repeat(Math.max(0, depth - 1))}${listIndex > 0 ? `${listIndex}. ` : "• "}`, true);
    const ordered = node.tag === "ol";
    let index = ordered ? Number.parseInt(node.attrs.start ?? "1", 10) || 1 : 0;
    for (const child of node.children) {
      const isItem = isElement(child) && child.tag === "li";
      const itemIndex = isItem && (ordered || node.tag === "ul") ? index : undefined;
      walk(child, inPre || node.tag === "pre", itemIndex, depth + (list ? 1 : 0));
      if (isItem && ordered && child.rendered) index += 1;
    }
    if (node.tag === "pre") out = out.replace(/\n+$/, "");
    if (entry) {
      open.splice(open.indexOf(entry), 1);
      if (entry.started) {
        const end = out.replace(kind === "pre" ? /\n+$/ : /$^/, "").length;
        entry.span.length = end - entry.span.offset;
        if (entry.span.length > 0) spans.push(entry.span);
      }
    }
    if (breaks > 0) pendingBreaks = Math.max(pendingBreaks, breaks);
  };

  for (const child of root.children) walk(child, false, undefined, 0);
  const text = out.replace(/\s+$/, "");
  const formatting = spans
    .map((span) => ({ ...span, length: Math.min(span.length, text.length - span.offset) }))
    .filter((span) => span.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { text, formatting };
}
