/**
 * Markdown tree → Markdown text in a dialect (CommonMark for an MCP client or Mattermost,
 * Discord's Markdown), from the mdast core parses, so every character of the reply's text is
 * escaped where the dialect could read it as markup: the reader sees exactly the text the
 * reply meant, formatted. Links are judged by the untrusted-text policy first
 * (untrusted-links.ts). With no options the output is CommonMark with GFM strikethrough; a
 * dialect that reads less (no nested quotes, no setext headings) or more (spoilers) says so.
 */
import type { List, Nodes, PhrasingContent, Root, RootContent, Table } from "mdast";
import { judgeLinks } from "./untrusted-links.js";

/** What differs between Markdown dialects; every field defaults to CommonMark's. */
export interface MarkdownDialect {
  /** Literal text, escaped so nothing in it formats. Default: CommonMark's backslash escapes . */
  text?(value: string): string;
  /** An inline code span around `value` (never empty). Default: a backtick fence longer than any run inside. */
  inlineCode?(value: string): string;
  /** A fenced code block; `language` is `""` or a safe info string (`ts`, `c++`). Default: a backtick fence longer than any run inside. */
  codeBlock?(value: string, language: string): string;
  /**
   * A link, already judged by the untrusted-text policy: `url` is `http:`, `https:` or
   * `mailto:`, `label` its rendered text. Default: `[label](url)`, the URL's space, `( ) < > \`
   * percent-encoded.
   */
  link?(url: string, label: string): string;
  /** A heading of `depth` (1–6) around its rendered content (`""` for an empty heading, which CommonMark writes `#`). Default: ATX `## …`, setext where it holds a line break. */
  heading?(depth: number, content: string): string;
  /** A thematic break. Default `***`. */
  thematicBreak?: string;
  /** A hard line break inside a paragraph. Default `\` and a newline. */
  lineBreak?: string;
  /** The marker around a spoiler (`||`); without one a spoiler's words show plain. */
  spoiler?: string;
  /**
   * Quotes the dialect cannot nest: a quote's blocks are single lines under one `> ` (a
   * nested quote's lines keep their one prefix). Default: nested quotes, blank `>` lines
   * between blocks.
   */
  flatQuotes?: boolean;
  /**
   * Lists and emphasis written as the dialect reads them without CommonMark's rules for
   * neighbours: every list item tight, every emphasis `*`. Default (CommonMark): a loose
   * item's blocks apart, a list right after a list with the other marker (`*`, `)`) so the
   * two stay apart, and `_` emphasis where a `*` would merge with a neighbouring one.
   */
  plainNeighbours?: boolean;
}

const PUNCTUATION = /[\\`*_[\]<>&~|#]/g;
const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** Text with every character CommonMark could read as the start of markup backslash-escaped. */
function escapeCommonMark(value: string): string {
  return value
    .replace(PUNCTUATION, "\\$&")
    .replace(/^([ \t]*)([>+=-])/gm, "$1\\$2")
    .replace(/^([ \t]*\d+)([.)])/gm, "$1\\$2");
}

/** The longest run of backticks in a string. */
function longestBackticks(value: string): number {
  let longest = 0;
  for (const run of value.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

function commonMarkInlineCode(value: string): string {
  const fence = "`".repeat(longestBackticks(value) + 1);
  const spaced = value.startsWith(" ") && value.endsWith(" ") && value.trim() !== "";
  const pad = value.startsWith("`") || value.endsWith("`") || spaced ? " " : "";
  return `${fence}${pad}${value}${pad}${fence}`;
}

function commonMarkCodeBlock(value: string, language: string): string {
  const fence = "`".repeat(Math.max(3, longestBackticks(value) + 1));
  return `${fence}${language}\n${value}\n${fence}`;
}

function commonMarkLink(url: string, label: string): string {
  return `[${label}](${url.replace(/[\s()<>\\]/g, (c) => encodeURIComponent(c))})`;
}

function commonMarkHeading(depth: number, content: string): string {
  // ATX ends at the line, so a heading with a line break can only be written setext-style.
  if (content.includes("\n") && depth <= 2) return `${content}\n${depth === 1 ? "===" : "---"}`;
  return `${"#".repeat(depth)} ${content.replace(/\n/g, " ")}`;
}

function wrap(marker: string, content: string): string {
  return content === "" ? "" : `${marker}${content}${marker}`;
}

function indent(text: string, first: string, rest: string): string {
  return first + text.replace(/\n/g, `\n${rest}`);
}

/** A table as aligned plain-text columns in a code block (CommonMark has no tables). */
function tableText(table: Table): string {
  const rows = table.children.map((row) => row.children.map((cell) => plainInline(cell.children)));
  const widths: number[] = [];
  for (const row of rows)
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join(" | ")
      .trimEnd();
  const [head, ...body] = rows;
  if (head === undefined) return "";
  return [line(head), widths.map((w) => "-".repeat(w)).join("-|-"), ...body.map(line)].join("\n");
}

function plainInline(children: PhrasingContent[]): string {
  return children
    .map((child) =>
      "value" in child
        ? child.value
        : "children" in child
          ? plainInline(child.children as PhrasingContent[])
          : "",
    )
    .join("");
}

/** A renderer of Markdown trees (a whole reply or a chunk of one) into `dialect`. */
export function createMarkdownRenderer(dialect: MarkdownDialect = {}): (tree: Root) => string {
  const text = dialect.text ?? escapeCommonMark;
  const inlineCode = dialect.inlineCode ?? commonMarkInlineCode;
  const codeBlock = dialect.codeBlock ?? commonMarkCodeBlock;
  const link = dialect.link ?? commonMarkLink;
  const heading = dialect.heading ?? commonMarkHeading;
  const neighbours = dialect.plainNeighbours !== true;
  const code = (value: string, lang: string | null | undefined) =>
    codeBlock(value, lang && LANGUAGE.test(lang) ? lang : "");

  /** `*` works inside words; `_` where a `*` would merge with a neighbouring one. */
  const emphasis = (content: string, afterStar: boolean): string =>
    wrap(neighbours && (afterStar || /^\*|\*$/.test(content)) ? "_" : "*", content);

  function inline(children: RootContent[]): string {
    let out = "";
    for (const child of children)
      out += child.type === "emphasis" ? emphasis(inline(child.children), out.endsWith("*")) : node(child);
    return out;
  }

  function blocks(children: RootContent[], separator: string): string {
    const out: string[] = [];
    let previousList = false;
    let alternate = false;
    for (const child of children) {
      alternate = neighbours && child.type === "list" && previousList ? !alternate : false;
      previousList = child.type === "list";
      const rendered = child.type === "list" ? list(child, alternate) : node(child);
      if (rendered !== "") out.push(rendered);
    }
    return out.join(separator);
  }

  function list(n: List, alternate: boolean): string {
    const start = n.start ?? 1;
    return n.children
      .map((item, index) => {
        const marker = n.ordered ? `${start + index}${alternate ? ")" : "."} ` : alternate ? "* " : "- ";
        // A tight item's blocks stay together (a blank line would make the list loose).
        const body = blocks(item.children, neighbours && item.spread ? "\n\n" : "\n");
        return indent(body, marker, " ".repeat(marker.length));
      })
      .join("\n");
  }

  function quote(children: RootContent[]): string {
    if (!dialect.flatQuotes) return indent(blocks(children, "\n\n"), "> ", "> ");
    return blocks(children, "\n")
      .split("\n")
      .map((line) => (line.startsWith("> ") ? line : `> ${line}`))
      .join("\n");
  }

  function node(n: Nodes): string {
    switch (n.type) {
      case "root":
        return blocks(n.children, "\n\n");
      case "paragraph":
        return inline(n.children);
      case "heading":
        return heading(n.depth, inline(n.children));
      case "thematicBreak":
        return dialect.thematicBreak ?? "***";
      case "blockquote":
        return quote(n.children);
      case "list":
        return list(n, false);
      case "code":
        return code(n.value, n.lang);
      case "table":
        return code(tableText(n), null);
      case "html":
      case "text":
        return text(n.value);
      case "inlineCode":
        return n.value === "" ? "" : inlineCode(n.value);
      case "emphasis":
        return emphasis(inline(n.children), false);
      case "strong":
        return wrap("**", inline(n.children));
      case "delete":
        return wrap("~~", inline(n.children));
      case "spoiler":
        return dialect.spoiler === undefined ? inline(n.children) : wrap(dialect.spoiler, inline(n.children));
      case "break":
        return dialect.lineBreak ?? "\\\n";
      case "link":
        return link(n.url, inline(n.children));
      default:
        return "children" in n ? inline(n.children) : "value" in n ? text(String(n.value)) : "";
    }
  }

  return (tree) => node(judgeLinks(tree));
}
