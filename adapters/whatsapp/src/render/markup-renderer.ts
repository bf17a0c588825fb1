/**
 * Markdown tree → WhatsApp markup, from the mdast core parses. Styles `*b* _i_ ~s~ \`code\``,
 * code blocks as ```` ```monospace``` ````, quotes `> `, lists as `- ` / `1. ` lines (nested
 * ones indented), headings as bold lines. WhatsApp has no link labels: a link shows its label
 * and then its URL (the URL alone when they are the same), and the client links the URL. A
 * styled span touching a word gets a zero-width space so its markers stay at word boundaries.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeText, fenceSafe, isBoundary, ZWSP } from "./escape.js";

const SAFE_LINK = /^(https?:|mailto:)/i;

/** One rendered inline piece; `styled` when it starts and ends with a style marker. */
interface Piece {
  text: string;
  styled: boolean;
}

/** Render a Markdown tree (a whole reply or a chunk of one) as WhatsApp markup. */
export function renderWhatsApp(tree: Root): string {
  return blocks(tree.children, "\n\n");
}

function blocks(children: RootContent[], separator: string): string {
  return children
    .map((child) => block(child))
    .filter((text) => text !== "")
    .join(separator);
}

function block(n: RootContent): string {
  switch (n.type) {
    case "paragraph":
      return inline(n.children);
    case "heading":
      return wrap("*", inline(n.children));
    case "thematicBreak":
      return "———";
    case "blockquote":
      return blocks(n.children, "\n")
        .split("\n")
        .map((line) => `> ${line.startsWith(ZWSP) ? line.slice(1) : line}`)
        .join("\n");
    case "list":
      return list(n);
    case "code":
      return n.value === "" ? "" : `\`\`\`${fenceSafe(n.value)}\`\`\``;
    case "html":
      return escapeText(n.value);
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children as PhrasingContent[]) : piece(n as Nodes).text;
  }
}

/** Join inline pieces, separating a styled piece from an adjacent word with a zero-width space. */
function inline(children: PhrasingContent[]): string {
  let out = "";
  let previousStyled = false;
  for (const child of children) {
    const { text, styled } = piece(child);
    if (text === "") continue;
    const touching =
      (styled && !isBoundary(out.at(-1)) && out !== "") || (previousStyled && !isBoundary(text[0]));
    out += (touching ? ZWSP : "") + text;
    previousStyled = styled;
  }
  return out;
}

function piece(n: Nodes): Piece {
  switch (n.type) {
    case "text":
    case "html":
      return { text: escapeText(n.value), styled: false };
    case "inlineCode":
      return styled("`", n.value.replace(/`/g, "ˋ"));
    case "strong":
      return styled("*", inline(n.children));
    case "emphasis":
      return styled("_", inline(n.children));
    case "delete":
      return styled("~", inline(n.children));
    case "break":
      return { text: "\n", styled: false };
    case "link":
      return { text: link(n.url, plainLabel(n.children)), styled: false };
    case "image":
      return { text: link(n.url, n.alt || n.url), styled: false };
    default:
      return { text: "children" in n ? inline(n.children as PhrasingContent[]) : "", styled: false };
  }
}

function styled(marker: string, inner: string): Piece {
  return inner.trim() === "" ? { text: inner, styled: false } : { text: wrap(marker, inner), styled: true };
}

function wrap(marker: string, inner: string): string {
  return inner === "" ? "" : `${marker}${inner}${marker}`;
}

function plainLabel(children: PhrasingContent[]): string {
  return children
    .map((c) => ("value" in c ? c.value : "children" in c ? plainLabel(c.children) : ""))
    .join("");
}

/** A link as WhatsApp can show one: the label, then the URL the client links (only the label for unsafe schemes). */
function link(url: string, label: string): string {
  if (!SAFE_LINK.test(url)) return escapeText(label);
  if (label === "" || label === url) return url;
  return `${escapeText(label)} (${url})`;
}

function list(n: List): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}. ` : "- ";
      const body = blocks(item.children, "\n");
      return marker + body.replace(/\n/g, `\n${" ".repeat(4)}`);
    })
    .join("\n");
}
