/**
 * Content nested deeper than the parser goes. markdown-it drops every line past its
 * `maxNesting` without a trace, so a reply of 10,000 `> ` and then text would arrive empty.
 * Instead, at {@link BLOCK_NESTING} levels the rest of the container becomes one paragraph
 * of its text (quote and list markers at line starts removed, inline Markdown still parsed), marked
 * {@link FLATTENED_NESTING} so the plan reports the formatting it lost.
 */
import type MarkdownIt from "markdown-it";
import type { StateBlock } from "markdown-it";
import type { Nodes } from "mdast";

/**
 * Deepest block nesting parsed (each quote, list and list item is a level). markdown-it's
 * CommonMark preset says 20, shallow for nested lists; deeper recursion would risk the stack.
 */
export const BLOCK_NESTING = 100;

/** `node.data.flattened` of a paragraph holding content nested past {@link BLOCK_NESTING}. */
export const FLATTENED_NESTING = "nesting";

declare module "mdast" {
  interface Data {
    /** Outbox: the node holds text whose formatting was flattened while parsing (`"nesting"`). */
    flattened?: typeof FLATTENED_NESTING;
  }
}

/** Quote and list markers (`>`, `-`, `+`, `*`, `1.`, `1)`) and their blanks at the start of a line. */
const CONTAINER_MARKERS = /^[ \t]*(?:>[ \t]*|(?:[-+*]|\d{1,9}[.)])(?:[ \t]+|$))+/gm;

/** Install the rule: first of the block rules, so no other rule nests deeper. */
export function flattenDeepNesting(md: MarkdownIt): void {
  md.block.ruler.before("table", "deep_nesting", (state: StateBlock, startLine, endLine, silent) => {
    if (state.level < BLOCK_NESTING) return false;
    if (silent) return true;
    const content = state.getLines(startLine, endLine, state.blkIndent, false).replace(CONTAINER_MARKERS, "");
    const open = state.push("paragraph_open", "p", 1);
    open.map = [startLine, endLine];
    open.meta = { flattened: FLATTENED_NESTING };
    const inline = state.push("inline", "", 0);
    inline.content = content.trim();
    inline.map = [startLine, endLine];
    inline.children = [];
    state.push("paragraph_close", "p", -1);
    state.line = endLine;
    return true;
  });
}

/** Whether `node` or a node inside it was flattened while parsing. */
export function hasFlattened(node: Nodes): boolean {
  if (node.data?.flattened !== undefined) return true;
  return "children" in node && node.children.some((child) => hasFlattened(child));
}
