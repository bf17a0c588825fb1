/**
 * Markdown tree → Discord Markdown, from the mdast core parses. Headings 1–3 stay headings
 * (`#`, `##`, `###`; deeper ones become bold lines), lists are `-`/`1.` lines, quotes `> `
 * lines (Discord cannot nest them), tables code blocks with aligned columns, links masked
 * links for http(s) URLs only, judged by core's untrusted-text policy first; all other text
 * is escaped.
 */
import { judgeLinks } from "@outbox/core";
import type { List, Nodes, PhrasingContent, Root, RootContent, Table } from "mdast";
import { escapeMarkdown, fenceSafe, linkTarget } from "./escape.js";

const SAFE_LINK = /^https?:\/\//i;
const LANGUAGE = /^[\w#+.-]{1,32}$/;

/** Render a Markdown tree (a whole reply or a chunk of one) as Discord Markdown. */
export function renderDiscordMarkdown(tree: Root): string {
  return blocks(judgeLinks(tree).children, "\n\n");
}

function blocks(children: RootContent[], separator: string): string {
  return children
    .map((child) => node(child))
    .filter((text) => text !== "")
    .join(separator);
}

function inline(children: PhrasingContent[] | RootContent[]): string {
  return children.map((child) => node(child)).join("");
}

function wrap(marker: string, content: string): string {
  return content === "" ? "" : `${marker}${content}${marker}`;
}

function node(n: Nodes): string {
  switch (n.type) {
    case "root":
      return blocks(n.children, "\n\n");
    case "paragraph":
      return inline(n.children);
    case "heading": {
      const content = inline(n.children);
      if (content === "") return "";
      return n.depth <= 3 ? `${"#".repeat(n.depth)} ${content.replace(/\n/g, " ")}` : wrap("**", content);
    }
    case "thematicBreak":
      return "———";
    case "blockquote":
      return blocks(n.children, "\n")
        .split("\n")
        .map((line) => (line.startsWith("> ") ? line : `> ${line}`))
        .join("\n");
    case "list":
      return list(n);
    case "listItem":
      return blocks(n.children, "\n");
    case "code":
      return codeBlock(n.value, n.lang);
    case "table":
      return codeBlock(tableText(n), null);
    case "html":
    case "text":
      return escapeMarkdown(n.value);
    case "inlineCode":
      return inlineCode(n.value);
    case "emphasis":
      return wrap("*", inline(n.children));
    case "strong":
      return wrap("**", inline(n.children));
    case "delete":
      return wrap("~~", inline(n.children));
    case "spoiler":
      return wrap("||", inline(n.children));
    case "break":
      return "\n";
    case "link":
      return link(n.url, inline(n.children));
    case "definition":
      return "";
    default:
      return "children" in n ? inline(n.children) : "value" in n ? escapeMarkdown(String(n.value)) : "";
  }
}

function link(url: string, label: string): string {
  if (!SAFE_LINK.test(url)) return label;
  if (label === escapeMarkdown(url)) return `<${url.replace(/[\s<>]/g, encodeURIComponent)}>`;
  return `[${label}](${linkTarget(url)})`;
}

function inlineCode(value: string): string {
  if (value === "") return "";
  if (!value.includes("`")) return `\`${value}\``;
  // Double backticks hold single ones; spaces keep a backtick at either end off the fence.
  return `\`\` ${value.replace(/``+/g, (run) => run.split("").join("\u200b"))} \`\``;
}

function codeBlock(value: string, lang: string | null | undefined): string {
  if (value === "") return "";
  const language = lang && LANGUAGE.test(lang) ? lang : "";
  return `\`\`\`${language}\n${fenceSafe(value)}\n\`\`\``;
}

function list(n: List): string {
  const start = n.start ?? 1;
  return n.children
    .map((item, index) => {
      const marker = n.ordered ? `${start + index}. ` : "- ";
      const body = node(item);
      return marker + body.replace(/\n/g, `\n${" ".repeat(marker.length)}`);
    })
    .join("\n");
}

/** A table as aligned plain-text columns (Discord has no tables; a code block keeps them aligned). */
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
