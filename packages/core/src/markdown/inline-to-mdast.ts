import type { Token } from "markdown-it";
import type { InlineCode, PhrasingContent } from "mdast";
import type { CodeSpanRange } from "./markdown-it.js";
import { point, type SourceLines } from "./source-lines.js";

/** An inline node that holds phrasing children. */
type Container = Extract<PhrasingContent, { children: PhrasingContent[] }>;

/** Convert an `inline` token's children into mdast phrasing content. */
export function convertInline(inline: Token, lines: SourceLines, text: string): PhrasingContent[] {
  const root: PhrasingContent[] = [];
  const stack: Container[] = [];
  let children = root;
  let locate: ((range: CodeSpanRange) => InlineCode["position"]) | undefined;
  for (const token of inline.children ?? []) {
    let opened: Container | undefined;
    switch (token.type) {
      case "text":
      case "text_special":
        appendText(children, token.content);
        break;
      case "softbreak":
        appendLineEnding(children);
        break;
      case "hardbreak":
        children.push({ type: "break" });
        break;
      case "code_inline": {
        const node: InlineCode = { type: "inlineCode", value: token.content };
        if (token.meta) {
          locate ??= codeLocator(inline, lines, text);
          node.position = locate(token.meta as CodeSpanRange);
        }
        children.push(node);
        break;
      }
      case "html_inline":
        children.push({ type: "html", value: token.content });
        break;
      case "image":
        children.push({
          type: "image",
          url: token.attrGet("src") ?? "",
          title: token.attrGet("title"),
          alt: altText(token.children ?? []),
        });
        break;
      case "em_open":
        opened = { type: "emphasis", children: [] };
        break;
      case "strong_open":
        opened = { type: "strong", children: [] };
        break;
      case "s_open":
        opened = { type: "delete", children: [] };
        break;
      case "spoiler_open":
        opened = { type: "spoiler", children: [] };
        break;
      case "link_open":
        opened = {
          type: "link",
          url: token.attrGet("href") ?? "",
          title: token.attrGet("title"),
          children: [],
        };
        break;
      default:
        if (token.nesting === -1 && stack.length > 0) {
          stack.pop();
          children = stack[stack.length - 1]?.children ?? root;
        }
    }
    if (opened !== undefined) {
      children.push(opened);
      stack.push(opened);
      children = opened.children;
    }
  }
  return root;
}

function appendText(children: PhrasingContent[], value: string): void {
  if (value === "") return;
  const last = children[children.length - 1];
  if (last?.type === "text") last.value += value;
  else children.push({ type: "text", value });
}

/** A soft line break, dropping the tabs before it (markdown-it drops only spaces). */
function appendLineEnding(children: PhrasingContent[]): void {
  const last = children[children.length - 1];
  if (last?.type === "text") last.value = last.value.replace(/[ \t]+$/, "");
  appendText(children, "\n");
}

/** An image's alt: the text of its description, as mdast's `toString` reads it. */
function altText(tokens: Token[]): string {
  let alt = "";
  for (const token of tokens) {
    if (token.type === "softbreak") alt += "\n";
    else if (token.type === "image") alt += altText(token.children ?? []);
    else if (token.type !== "hardbreak" && token.nesting === 0)
      // text, text_special, code, html
      alt += token.content;
  }
  return alt;
}

/**
 * Map offsets in an inline token's content back to the source. Content line `k` comes
 * from source line `map[0] + k`: a suffix of it (leading indentation and container
 * markers stripped), the last line also trimmed at its end (and an ATX heading's closing
 * `#`s dropped), so it is found by its end, or by its last occurrence on the last line.
 */
function codeLocator(
  inline: Token,
  lines: SourceLines,
  text: string,
): (range: CodeSpanRange) => InlineCode["position"] {
  const first = inline.map?.[0] ?? 0;
  const content = inline.content;
  const contentStarts = [0];
  for (let at = content.indexOf("\n"); at >= 0; at = content.indexOf("\n", at + 1))
    contentStarts.push(at + 1);
  const sourceStarts = contentStarts.map((start, k) => {
    const line = first + k;
    const lineStart = lines.starts[line] ?? 0;
    const lineEnd = lines.ends[line] ?? 0;
    const next = contentStarts[k + 1];
    const piece = content.slice(start, next === undefined ? content.length : next - 1);
    if (next !== undefined) return Math.max(lineStart, lineEnd - piece.length);
    const found = text.slice(lineStart, lineEnd).lastIndexOf(piece);
    return lineStart + Math.max(0, found);
  });
  const at = (offset: number, isEnd: boolean) => {
    let k = contentStarts.length - 1;
    while (k > 0 && (contentStarts[k] as number) > offset - (isEnd ? 1 : 0)) k -= 1;
    const sourceOffset = (sourceStarts[k] as number) + offset - (contentStarts[k] as number);
    return point(lines, first + k, sourceOffset);
  };
  return (range) => ({ start: at(range.start, false), end: at(range.end, true) });
}
