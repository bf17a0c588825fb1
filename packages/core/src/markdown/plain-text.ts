import type { List, Root, RootContent } from "mdast";
import type { Renderer } from "../adapter/types.js";
import { isLinkable } from "./untrusted-links.js";

/** Options of {@link toPlainText}. */
export interface PlainTextOptions {
  /** Add readable markers: list bullets and numbers, `> ` quotes, `text (url)` links. Default false. */
  markers?: boolean;
}

/**
 * The text a reader sees, without markup: blocks separated by a blank line, list items
 * by a line break, code verbatim, images as their alt text. With `markers`, the result
 * is readable plain text (what {@link createPlainRenderer} sends).
 */
export function toPlainText(tree: Root | RootContent, options: PlainTextOptions = {}): string {
  return text(tree, options.markers === true);
}

function text(node: Root | RootContent, markers: boolean): string {
  switch (node.type) {
    case "text":
    case "inlineCode":
    case "code":
    case "html":
      return node.value;
    case "break":
      return "\n";
    case "image":
      return node.alt ?? "";
    case "thematicBreak":
      return markers ? "———" : "";
    case "link": {
      const inner = inline(node.children, markers);
      // A target outside the untrusted-text policy's schemes (`tg:`, `javascript:`) is never written.
      return markers && inner !== node.url && isLinkable(node.url) ? `${inner} (${node.url})` : inner;
    }
    case "blockquote": {
      const inner = blocks(node.children, "\n\n", markers);
      return markers ? inner.replace(/^/gm, "> ") : inner;
    }
    case "list":
      return list(node, markers);
    case "root":
      return blocks(node.children, "\n\n", markers);
    case "listItem":
      // A tight item's blocks (its text and a nested list) show on consecutive lines.
      return blocks(node.children, node.spread ? "\n\n" : "\n", markers);
    default:
      return "children" in node ? inline(node.children, markers) : "";
  }
}

function inline(children: RootContent[], markers: boolean): string {
  return children.map((child) => text(child, markers)).join("");
}

function blocks(children: RootContent[], separator: string, markers: boolean): string {
  return children.map((child) => text(child, markers)).join(separator);
}

function list(node: List, markers: boolean): string {
  const start = node.start ?? 1;
  return node.children
    .map((item, index) => {
      const body = text(item, markers);
      if (!markers) return body;
      const marker = node.ordered ? `${start + index}. ` : "- ";
      return marker + body.replace(/\n/g, `\n${" ".repeat(marker.length)}`);
    })
    .join("\n");
}

/** Options of {@link createPlainRenderer}. */
export interface PlainRendererOptions {
  /** How the platform counts length. Default: UTF-16 code units (`string.length`). */
  measure?: (rendered: string) => number;
}

/**
 * A renderer for platforms (or reference adapters) without markup: readable plain text
 * with list markers, quotes and `text (url)` links; nothing is escaped.
 */
export function createPlainRenderer(options: PlainRendererOptions = {}): Renderer {
  const render = (tree: Root): string => toPlainText(tree, { markers: true });
  return {
    render,
    plain: render,
    measure: options.measure ?? ((rendered) => rendered.length),
  };
}
