/**
 * Markdown tree → marker markup (Slack mrkdwn, WhatsApp's formatting), from the mdast core
 * parses, never by substitution. Styles `*b* _i_ ~s~ \`code\``, headings as bold lines,
 * quotes and lists as prefixed lines (nested lines indented four spaces), thematic breaks as
 * `———`. A styled span touching a word gets a zero-width space, so its markers stay at word
 * boundaries where the platform pairs them. The dialect escapes literal text, writes code,
 * blocks and links, and names its quote prefix and bullet.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { judgeLinks } from "./untrusted-links.js";

/** What differs between marker dialects. */
export interface MarkerRenderDialect {
  /** Literal text, escaped so nothing in it formats. */
  text(value: string): string;
  /** The content of inline code (its backticks already replaced by `ˋ`). */
  code(value: string): string;
  /** A code block with this (non-empty) content, fenced. */
  block(value: string): string;
  /** Written before each quoted line (`> `). */
  quote: string;
  /** Written before each unordered list item (`- `). */
  bullet: string;
  /**
   * A live link, already judged by the untrusted-text policy (untrusted-links.ts): `url` is
   * `http:`, `https:` or `mailto:`, `label` its plain text (the URL itself when the reply gave
   * none or a misleading one), never empty.
   */
  link(url: string, label: string): string;
}

/** Zero-width space: keeps a styled span's markers at word boundaries. */
const ZWSP = "\u200b";

/** One rendered inline piece; `styled` when it starts and ends with a style marker. */
interface Piece {
  text: string;
  styled: boolean;
}

/** Render a Markdown tree (a whole reply or a chunk of one) in a marker dialect. */
export function renderMarkers(tree: Root, dialect: MarkerRenderDialect): string {
  return blocks(judgeLinks(tree).children, "\n\n", dialect);
}

const BOUNDARY = /[\s\p{P}\p{S}]/u;
/** {@link BOUNDARY} answered for each ASCII character once (a styled piece asks at every piece). */
const ASCII_BOUNDARY = Array.from({ length: 0x80 }, (_, code) => BOUNDARY.test(String.fromCharCode(code)));

const isBoundary = (char: string | undefined) => {
  if (char === undefined || char === ZWSP) return true;
  const code = char.charCodeAt(0);
  return code < 0x80 ? (ASCII_BOUNDARY[code] as boolean) : BOUNDARY.test(char);
};

function blocks(children: RootContent[], separator: string, d: MarkerRenderDialect): string {
  return children
    .map((child) => block(child, d))
    .filter((text) => text !== "")
    .join(separator);
}

function block(n: RootContent, d: MarkerRenderDialect): string {
  switch (n.type) {
    case "paragraph":
      return inline(n.children, d);
    case "heading":
      return wrap("*", inline(n.children, d));
    case "thematicBreak":
      return "———";
    case "blockquote":
      return blocks(n.children, "\n", d)
        .split("\n")
        .map((line) => `${d.quote}${line.startsWith(ZWSP) ? line.slice(1) : line}`)
        .join("\n");
    case "list":
      return list(n, d);
    case "code":
      return n.value === "" ? "" : d.block(n.value);
    case "html":
      return d.text(n.value);
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children as PhrasingContent[], d) : piece(n as Nodes, d).text;
  }
}

/**
 * Join inline pieces, separating a styled piece from an adjacent word with a zero-width space.
 * The last character is kept aside: reading it back from the joined string would copy the
 * whole string at every piece.
 */
function inline(children: PhrasingContent[], d: MarkerRenderDialect): string {
  let out = "";
  let last: string | undefined;
  let previousStyled = false;
  for (const child of children) {
    const { text, styled } = piece(child, d);
    if (text === "") continue;
    const touching = (styled && !isBoundary(last) && out !== "") || (previousStyled && !isBoundary(text[0]));
    out += (touching ? ZWSP : "") + text;
    last = text.at(-1);
    previousStyled = styled;
  }
  return out;
}

function piece(n: Nodes, d: MarkerRenderDialect): Piece {
  switch (n.type) {
    case "text":
    case "html":
      return { text: d.text(n.value), styled: false };
    case "inlineCode":
      return styled("`", d.code(n.value.replace(/`/g, "ˋ")));
    case "strong":
      return styled("*", inline(n.children, d));
    case "emphasis":
      return styled("_", inline(n.children, d));
    case "delete":
      return styled("~", inline(n.children, d));
    case "break":
      return { text: "\n", styled: false };
    case "link":
      return { text: d.link(n.url, plainLabel(n.children)), styled: false };
    default:
      return { text: "children" in n ? inline(n.children as PhrasingContent[], d) : "", styled: false };
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

function list(n: List, d: MarkerRenderDialect): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}. ` : d.bullet;
      const body = blocks(item.children, "\n", d);
      return marker + body.replace(/\n/g, `\n${" ".repeat(4)}`);
    })
    .join("\n");
}
