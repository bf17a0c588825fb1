import type { Token } from "markdown-it";
import type { Blockquote, Code, List, ListItem, Root, RootContent } from "mdast";
import { convertInline } from "./inline-to-mdast.js";
import { markdownUtils, unescapeAll } from "./markdown-it.js";
import { treeNodes } from "./phrasing-nodes.js";
import { simpleInline } from "./simple-inline.js";
import { blockPosition, type SourceLines, sourceLines } from "./source-lines.js";

/** A container being filled while walking the block tokens. */
interface Frame {
  /** The container. */
  node: Root | Blockquote | List | ListItem;
  /** Its first line (0-based). */
  first: number;
  /** Line just past its last child's content, -1 before the first child. */
  end: number;
  /** Whether a blank line separates two of its children (mdast `spread`). */
  gap: boolean;
  /** For a quote, the line past its token's map: trailing `>` lines before it are its content. */
  until?: number;
}

/** What the walk reads: the source text, its lines (split on first use), and whether to record positions. */
class Source {
  #lines: SourceLines | undefined;

  constructor(
    readonly text: string,
    readonly positions: boolean,
  ) {}

  /** The source's lines, split on first read (without positions only a quote's end reads them). */
  get lines(): SourceLines {
    this.#lines ??= sourceLines(this.text);
    return this.#lines;
  }
}

/**
 * Convert markdown-it's token stream into an mdast tree. Block nodes get line-based
 * positions (from the first line's start, or from the fence or code text for `code`, to
 * the end of the last content line); `inlineCode` gets its exact source range; other
 * inline nodes carry no position. With `positions: false` no node carries one (the
 * tree is otherwise the same, a long reply's recurring small nodes shared: see {@link treeNodes}),
 * which spares the work and memory where nothing reads them.
 */
export function toMdast(tokens: Token[], text: string, positions = true): Root {
  const source = new Source(text, positions);
  const nodes = positions ? undefined : treeNodes(text);
  const root: Root = { type: "root", children: [] };
  if (positions) root.position = blockPosition(source.lines, 0, source.lines.ends.length - 1);
  const frames: Frame[] = [{ node: root, first: 0, end: -1, gap: false }];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as Token;
    const frame = frames[frames.length - 1] as Frame;
    const map = token.map;
    const first = map === null ? (frame.end < 0 ? frame.first : frame.end) : map[0];
    const end = map === null ? frame.end : map[1];
    switch (token.type) {
      case "paragraph_open":
      case "heading_open": {
        const inline = tokens[i + 1];
        const lines = positions ? source.lines : undefined;
        const children =
          inline?.type !== "inline"
            ? []
            : inline.children === null
              ? simpleInline(inline, markdownUtils(), lines, text, nodes)
              : convertInline(inline, lines, text, nodes);
        const flattened = token.meta?.flattened !== undefined;
        const node: RootContent =
          token.type === "heading_open"
            ? { type: "heading", depth: headingDepth(token.tag), children }
            : nodes === undefined || flattened
              ? { type: "paragraph", children }
              : nodes.paragraph(children);
        if (flattened) {
          // The root says so too, so the plan looks for it only in a reply that has one.
          node.data = { flattened: token.meta.flattened };
          root.data = { flattened: token.meta.flattened };
        }
        add(frame, node, source, first, end);
        i += 2;
        break;
      }
      case "blockquote_open":
        frames.push({ node: { type: "blockquote", children: [] }, first, end: -1, gap: false, until: end });
        break;
      case "bullet_list_open":
      case "ordered_list_open": {
        const ordered = token.type === "ordered_list_open";
        const start = ordered ? Number(token.attrGet("start") ?? 1) : null;
        frames.push({
          node: { type: "list", ordered, start, spread: false, children: [] },
          first,
          end: -1,
          gap: false,
        });
        break;
      }
      case "list_item_open":
        frames.push({
          node: { type: "listItem", spread: false, checked: null, children: [] },
          first,
          end: -1,
          gap: false,
        });
        break;
      case "blockquote_close":
      case "bullet_list_close":
      case "ordered_list_close":
      case "list_item_close":
        close(frames, source);
        break;
      case "hr":
        add(frame, { type: "thematicBreak" }, source, first, end);
        break;
      case "code_block": {
        const node: RootContent = {
          type: "code",
          lang: null,
          meta: null,
          value: withoutFinalNewline(token.content),
        };
        add(frame, node, source, first, end, positions ? codeStart(token, source.lines) : undefined);
        break;
      }
      case "fence":
        add(
          frame,
          fence(token),
          source,
          first,
          end,
          positions ? fenceStart(token, source.lines, text) : undefined,
        );
        break;
      case "html_block":
        add(frame, { type: "html", value: withoutFinalNewline(token.content) }, source, first, end);
        break;
    }
  }
  return root;
}

/** Append a block spanning lines `[first, end)` to a frame, noting blank lines between children. */
function add(
  frame: Frame,
  node: RootContent,
  source: Source,
  first: number,
  end: number,
  startOffset?: number,
): void {
  if (frame.end >= 0 && first > frame.end) frame.gap = true;
  frame.end = Math.max(end, first + 1);
  if (source.positions) node.position = blockPosition(source.lines, first, frame.end - 1, startOffset);
  (frame.node.children as RootContent[]).push(node);
}

function close(frames: Frame[], source: Source): void {
  const frame = frames.pop() as Frame;
  const parent = frames[frames.length - 1] as Frame;
  const { node } = frame;
  if (node.type === "list" || node.type === "listItem") node.spread = frame.gap;
  let end = frame.end < 0 ? frame.first + 1 : frame.end;
  // A quote's trailing blank `>` lines are its own (markdown-it's map may run past them).
  while (frame.until !== undefined && end < frame.until && isQuoteLine(source.lines, source.text, end))
    end += 1;
  add(parent, node as RootContent, source, frame.first, end);
}

function isQuoteLine(lines: SourceLines, text: string, line: number): boolean {
  for (let i = lines.starts[line] ?? 0; i < (lines.ends[line] ?? 0); i += 1) {
    const ch = text.charCodeAt(i);
    if (ch !== 0x20 && ch !== 0x09) return ch === 0x3e;
  }
  return false;
}

function headingDepth(tag: string): 1 | 2 | 3 | 4 | 5 | 6 {
  return Math.min(6, Math.max(1, tag.charCodeAt(1) - 48)) as 1 | 2 | 3 | 4 | 5 | 6;
}

function fence(token: Token): RootContent {
  return fencedCode(unescapeAll(token.info), token.content);
}

/** A fenced code block of `info` (escapes decoded) and `content` (its lines, each ending in `\n`). */
export function fencedCode(info: string, content: string): Code {
  const trimmed = info.trim();
  const space = trimmed.search(/[ \t]/);
  const lang = trimmed === "" ? null : space < 0 ? trimmed : trimmed.slice(0, space);
  const meta = space < 0 ? null : trimmed.slice(space).trim() || null;
  return { type: "code", lang, meta, value: withoutFinalNewline(content) };
}

function withoutFinalNewline(value: string): string {
  return value.endsWith("\n") ? value.slice(0, -1) : value;
}

/** Offset of the opening fence on its line. */
function fenceStart(token: Token, lines: SourceLines, text: string): number | undefined {
  const line = token.map?.[0] ?? 0;
  const at = text.indexOf(token.markup, lines.starts[line]);
  return at >= 0 && at < (lines.ends[line] ?? 0) ? at : undefined;
}

/** Offset of an indented code block's text on its first line (past the indentation). */
function codeStart(token: Token, lines: SourceLines): number | undefined {
  const line = token.map?.[0] ?? 0;
  const newline = token.content.indexOf("\n");
  const length = newline < 0 ? token.content.length : newline;
  return Math.max(lines.starts[line] ?? 0, (lines.ends[line] ?? 0) - length);
}
