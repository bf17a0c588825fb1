import type { Token } from "markdown-it";
import type { InlineCode, PhrasingContent, Text } from "mdast";
import type { CodeSpanRange } from "./markdown-it.js";
import { point, type SourceLines } from "./source-lines.js";

/** An inline node that holds phrasing children. */
type Container = Extract<PhrasingContent, { children: PhrasingContent[] }>;

/**
 * Convert an `inline` token's children into mdast phrasing content; with `lines`, code
 * spans get their source position.
 */
export function convertInline(
  inline: Token,
  lines: SourceLines | undefined,
  text: string,
): PhrasingContent[] {
  const root: PhrasingContent[] = [];
  /** The children arrays enclosing each open container, innermost last. */
  const outer: PhrasingContent[][] = [];
  let children = root;
  /** The last of `children` when it is a text node: adjacent text is merged into it. */
  let last: Text | undefined;
  let source: InlineSource | undefined;
  const tokens = inline.children ?? [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as Token;
    let node: PhrasingContent | undefined;
    let opened: Container | undefined;
    switch (token.type) {
      case "text":
      case "text_special": {
        const value = token.content;
        if (value === "") break;
        if (last === undefined) {
          last = { type: "text", value };
          children.push(last);
        } else last.value += value;
        break;
      }
      case "softbreak":
        // A soft line break, dropping the tabs before it (markdown-it drops only spaces).
        // Only the previous token's text can end in blanks; reading `last.value` itself
        // would flatten a long concatenation at every line.
        if (last === undefined) {
          last = { type: "text", value: "\n" };
          children.push(last);
        } else {
          const previous = tokens[index - 1];
          if (previous?.type === "text") last.value = withoutTrailingBlanks(last.value, previous.content);
          last.value += "\n";
        }
        break;
      case "hardbreak":
        node = { type: "break" };
        break;
      case "code_inline": {
        const code: InlineCode = { type: "inlineCode", value: token.content };
        if (lines !== undefined && token.meta) {
          source ??= new InlineSource(inline, lines, text);
          code.position = source.position(token.meta as CodeSpanRange);
        }
        node = code;
        break;
      }
      case "html_inline":
        node = { type: "html", value: token.content };
        break;
      case "image":
        node = {
          type: "image",
          url: token.attrGet("src") ?? "",
          title: token.attrGet("title"),
          alt: altText(token.children ?? []),
        };
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
        if (token.nesting === -1 && outer.length > 0) {
          children = outer.pop() as PhrasingContent[];
          last = undefined;
        }
    }
    if (node !== undefined) {
      children.push(node);
      last = undefined;
    } else if (opened !== undefined) {
      children.push(opened);
      outer.push(children);
      children = opened.children;
      last = undefined;
    }
  }
  return root;
}

/** `value` without the blanks that end `ending`, the piece of text it ends with. */
function withoutTrailingBlanks(value: string, ending: string): string {
  let end = ending.length;
  while (end > 0 && isBlank(ending.charCodeAt(end - 1))) end -= 1;
  return end < ending.length ? value.slice(0, end - ending.length) : value;
}

function isBlank(ch: number): boolean {
  return ch === 0x20 || ch === 0x09;
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
 * Maps offsets in an inline token's content back to the source. Content line `k` comes
 * from source line `map[0] + k`: a suffix of it (leading indentation and container
 * markers stripped), the last line also trimmed at its end (and an ATX heading's closing
 * `#`s dropped), so it is found by its end, or by its last occurrence on the last line.
 */
class InlineSource {
  private readonly first: number;
  /** Offset in the content where each content line starts. */
  private readonly contentStarts: number[] = [0];
  /** Offset in the source where each content line starts. */
  private readonly sourceStarts: number[] = [];

  constructor(
    inline: Token,
    private readonly lines: SourceLines,
    text: string,
  ) {
    this.first = inline.map?.[0] ?? 0;
    const content = inline.content;
    const starts = this.contentStarts;
    for (let at = content.indexOf("\n"); at >= 0; at = content.indexOf("\n", at + 1)) starts.push(at + 1);
    for (let k = 0; k < starts.length; k += 1) {
      const line = this.first + k;
      const lineStart = lines.starts[line] ?? 0;
      const lineEnd = lines.ends[line] ?? 0;
      const next = starts[k + 1];
      const length = (next === undefined ? content.length + 1 : next) - 1 - (starts[k] as number);
      if (next !== undefined) this.sourceStarts.push(Math.max(lineStart, lineEnd - length));
      else {
        const piece = content.slice(starts[k], content.length);
        this.sourceStarts.push(lineStart + Math.max(0, text.slice(lineStart, lineEnd).lastIndexOf(piece)));
      }
    }
  }

  /** The source position of a code span. */
  position(range: CodeSpanRange): InlineCode["position"] {
    return { start: this.point(range.start, false), end: this.point(range.end, true) };
  }

  private point(offset: number, isEnd: boolean) {
    const starts = this.contentStarts;
    // The last content line starting at or before the offset (binary search).
    const target = offset - (isEnd ? 1 : 0);
    let k = 0;
    let high = starts.length - 1;
    while (k < high) {
      const middle = (k + high + 1) >> 1;
      if ((starts[middle] as number) <= target) k = middle;
      else high = middle - 1;
    }
    const sourceOffset = (this.sourceStarts[k] as number) + offset - (starts[k] as number);
    return point(this.lines, this.first + k, sourceOffset);
  }
}
