import type { Token } from "markdown-it";
import type { InlineCode, PhrasingContent } from "mdast";
import type { CodeSpanRange } from "./code-span.js";
import { PhrasingBuilder } from "./phrasing-builder.js";
import type { PhrasingNodes } from "./phrasing-nodes.js";
import { point, type SourceLines } from "./source-lines.js";

/**
 * Convert an `inline` token's children into mdast phrasing content, made by `nodes`; with
 * `lines`, code spans get their source position.
 */
export function convertInline(
  inline: Token,
  lines: SourceLines | undefined,
  text: string,
  nodes?: PhrasingNodes,
): PhrasingContent[] {
  const built = new PhrasingBuilder(nodes);
  let source: InlineSource | undefined;
  for (const token of inline.children ?? []) {
    switch (token.type) {
      case "text":
      case "text_special":
        built.text(token.content);
        break;
      case "softbreak":
        built.softBreak();
        break;
      case "hardbreak":
        built.hardBreak();
        break;
      case "code_inline":
        if (lines !== undefined && token.meta) {
          source ??= new InlineSource(inline, lines, text);
          built.code(token.content, source.position(token.meta as CodeSpanRange));
        } else built.code(token.content);
        break;
      case "html_inline":
        built.leaf({ type: "html", value: token.content });
        break;
      case "image":
        built.leaf({
          type: "image",
          url: token.attrGet("src") ?? "",
          title: token.attrGet("title"),
          alt: altText(token.children ?? []),
        });
        break;
      case "em_open":
        built.open({ type: "emphasis", children: [] });
        break;
      case "strong_open":
        built.open({ type: "strong", children: [] });
        break;
      case "s_open":
        built.open({ type: "delete", children: [] });
        break;
      case "spoiler_open":
        built.open({ type: "spoiler", children: [] });
        break;
      case "link_open":
        built.open({
          type: "link",
          url: token.attrGet("href") ?? "",
          title: token.attrGet("title"),
          children: [],
        });
        break;
      default:
        if (token.nesting === -1) built.close();
    }
  }
  return built.finish();
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
export class InlineSource {
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
