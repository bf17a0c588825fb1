/**
 * Markdown tree → Slack mrkdwn, from the mdast core parses, never by regex substitution.
 * Styles `*b* _i_ ~s~ \`code\``, code blocks in fences (Slack shows no language), links
 * `<url|label>`, quotes `&gt; `, headings as bold lines, lists as `•`/`1.` lines. A styled span
 * touching a word gets a zero-width space so Slack still sees its markers at word boundaries.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent } from "mdast";
import { escapeControl, escapeText, escapeUrl, fenceSafe, isBoundary, ZWSP } from "./escape.js";

/** Rendering options. */
export interface MrkdwnOptions {
  /** Keep Slack's mention tokens (`<@U…>`, `<!here>` …) live. */
  mentions: boolean;
}

const SAFE_LINK = /^(https?:|mailto:)/i;

/** One rendered inline piece; `styled` when it starts and ends with a style marker. */
interface Piece {
  text: string;
  styled: boolean;
}

/** Render a Markdown tree (a whole reply or a chunk of one) as Slack mrkdwn. */
export function renderMrkdwn(tree: Root, options: MrkdwnOptions): string {
  return blocks(tree.children, "\n\n", options);
}

function blocks(children: RootContent[], separator: string, o: MrkdwnOptions): string {
  return children
    .map((child) => block(child, o))
    .filter((text) => text !== "")
    .join(separator);
}

function block(n: RootContent, o: MrkdwnOptions): string {
  switch (n.type) {
    case "paragraph":
      return inline(n.children, o);
    case "heading":
      return wrap("*", inline(n.children, o));
    case "thematicBreak":
      return "———";
    case "blockquote":
      return blocks(n.children, "\n", o)
        .split("\n")
        .map((line) => `&gt; ${line.startsWith(ZWSP) ? line.slice(1) : line}`)
        .join("\n");
    case "list":
      return list(n, o);
    case "code":
      return n.value === "" ? "" : `\`\`\`\n${fenceSafe(escapeControl(n.value))}\n\`\`\``;
    case "html":
      return escapeText(n.value, o.mentions);
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children as PhrasingContent[], o) : piece(n as Nodes, o).text;
  }
}

/** Join inline pieces, separating a styled piece from an adjacent word with a zero-width space. */
function inline(children: PhrasingContent[], o: MrkdwnOptions): string {
  let out = "";
  let previousStyled = false;
  for (const child of children) {
    const { text, styled } = piece(child, o);
    if (text === "") continue;
    const touching =
      (styled && !isBoundary(out.at(-1)) && out !== "") || (previousStyled && !isBoundary(text[0]));
    out += (touching ? ZWSP : "") + text;
    previousStyled = styled;
  }
  return out;
}

function piece(n: Nodes, o: MrkdwnOptions): Piece {
  switch (n.type) {
    case "text":
    case "html":
      return { text: escapeText(n.value, o.mentions), styled: false };
    case "inlineCode":
      return styled("`", escapeControl(n.value.replace(/`/g, "ˋ")));
    case "strong":
      return styled("*", inline(n.children, o));
    case "emphasis":
      return styled("_", inline(n.children, o));
    case "delete":
      return styled("~", inline(n.children, o));
    case "break":
      return { text: "\n", styled: false };
    case "link":
      return { text: link(n.url, plainLabel(n.children)), styled: false };
    case "image":
      return { text: link(n.url, n.alt || n.url), styled: false };
    default:
      return {
        text: "children" in n ? inline(n.children as PhrasingContent[], o) : "",
        styled: false,
      };
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

function link(url: string, label: string): string {
  if (!SAFE_LINK.test(url)) return escapeControl(label);
  if (label === "" || label === url) return `<${escapeUrl(url)}>`;
  return `<${escapeUrl(url)}|${escapeControl(label)}>`;
}

function list(n: List, o: MrkdwnOptions): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}. ` : "• ";
      const body = blocks(item.children, "\n", o);
      return marker + body.replace(/\n/g, `\n${" ".repeat(4)}`);
    })
    .join("\n");
}
