import type { Parent, RootContent } from "mdast";

/**
 * Offsets into a Markdown block: every literal node (`text`, `inlineCode`, `code`, raw
 * `html`, which chat renderers show as text) counts its UTF-16 units; every other leaf
 * (image, line break, rule) counts one and can never be cut. A piece of a block (a range
 * of offsets) is a tree that keeps the formatting ancestors of its text.
 *
 * A block is cut into pieces by ranges of the original, never by cutting the rest again:
 * each parent's child offsets are summed once, so taking a piece costs its own size plus a
 * binary search per level, however many children the block has (a paragraph of 250,000
 * emphasis nodes is cut 250 times without copying its children 250 times).
 */

type Node = RootContent;

const BLOCK_CONTAINERS = new Set(["blockquote", "list", "listItem"]);
/** Children up to which a node's length is not kept. */
const FEW = 4;

function isSplittableLiteral(
  node: Node,
): node is Extract<Node, { type: "text" | "inlineCode" | "code" | "html" }> {
  return node.type === "text" || node.type === "inlineCode" || node.type === "code" || node.type === "html";
}

/**
 * Offsets of the blocks of one tree being split. The child offsets of a parent of more
 * than a few children, or of one cut inside, are summed on first use and kept for the life
 * of this object (a plain `Map`, dropped with it: a process-wide `WeakMap` of every node made
 * each collection walk hundreds of thousands of entries).
 */
export class TreeOffsets {
  readonly #starts = new Map<Node, number[]>();

  /** Length of a node in offset units. */
  length(node: Node): number {
    if (isSplittableLiteral(node)) return node.value.length;
    if (!("children" in node)) return 1;
    if (node.children.length > FEW) {
      const offsets = this.#childStarts(node);
      return offsets[offsets.length - 1] as number;
    }
    // A node of a few children is summed again each time (a `Map` entry costs more).
    let length = 0;
    for (const child of node.children) length += this.length(child as Node);
    return length;
  }

  /** Offset of each child of `node` within it, and its length last. */
  #childStarts(node: Node & Parent): number[] {
    let offsets = this.#starts.get(node);
    if (offsets !== undefined) return offsets;
    offsets = [0];
    let position = 0;
    for (const child of node.children) {
      position += this.length(child as Node);
      offsets.push(position);
    }
    this.#starts.set(node, offsets);
    return offsets;
  }

  /**
   * The piece of `node` holding units `[from, to)` (`to` at or past the end: everything from
   * `from`), `undefined` when empty; the node itself when the range covers it. A code block
   * cut after a line break loses that line break (each piece is a complete block with the
   * same language); an ordered list cut after its first items keeps its numbering. The
   * pieces `[0, a)`, `[a, b)`, … are the trees that cutting the head off and then cutting
   * the rest again would give.
   */
  slice(node: Node, from: number, to: number): Node | undefined {
    const length = this.length(node);
    if (from <= 0 && to >= length) return node;
    if (from >= length && length > 0) return undefined;
    if (isSplittableLiteral(node)) {
      let value = node.value.slice(Math.max(0, from), to);
      if (node.type === "code" && to < length && value.endsWith("\n")) value = value.slice(0, -1);
      return { ...node, value };
    }
    if (!("children" in node)) return from <= 0 && to > 0 ? node : undefined;
    const offsets = this.#childStarts(node);
    const children: Node[] = [];
    const first = from <= 0 ? 0 : firstChildAt(offsets, from);
    for (let index = first; index < node.children.length; index += 1) {
      const start = offsets[index] as number;
      const end = offsets[index + 1] as number;
      // A child starting at the cut goes to the piece after it (a zero-length one too).
      if (to < length && start >= to) break;
      if (from <= start && (to >= length || to >= end)) {
        children.push(node.children[index] as Node);
        continue;
      }
      const piece = this.slice(
        node.children[index] as Node,
        from - start,
        to >= length ? end - start : to - start,
      );
      if (piece !== undefined) children.push(piece);
    }
    const sliced = { ...node, children } as Node;
    if (sliced.type === "list" && sliced.ordered && from > 0) sliced.start = (sliced.start ?? 1) + first;
    return sliced;
  }

  /**
   * The preferred cut offsets of a block's units `[from, until]`, relative to `from` (only
   * those past it), in one walk over that range.
   */
  boundaries(node: Node, from: number, until: number): Boundaries {
    const boundaries: Boundaries = { byRank: { 3: [], 2: [], 1: [] }, unsafe: new Set() };
    this.#walk(node, -from, until - from, boundaries);
    return boundaries;
  }

  /**
   * Walk `node`, which starts at `start` (negative when it starts before the range), up to
   * `until`; its length when walked to its end (past `until` when stopped early).
   */
  #walk(node: Node, start: number, until: number, out: Boundaries): number {
    if (isSplittableLiteral(node)) {
      const value = node.value;
      const end = Math.min(value.length, until - start);
      for (let i = Math.max(0, -start); i < end; i += 1) {
        const code = value.charCodeAt(i);
        const at = start + i + 1;
        if (code === 10) out.byRank[2].push(at);
        else if (code === 32 || code === 9) out.byRank[1].push(at);
        else if (code >= 0xd800 && code <= 0xdbff) out.unsafe.add(at);
      }
      return value.length;
    }
    if (node.type === "break") {
      if (start + 1 > 0) out.byRank[2].push(start + 1);
      return 1;
    }
    if (!("children" in node)) return 1;
    const container = BLOCK_CONTAINERS.has(node.type);
    const children = node.children;
    // Child offsets are looked up only for a node the range starts inside; elsewhere they are
    // summed while walking.
    let index = start >= 0 ? 0 : firstChildAt(this.#childStarts(node), -start);
    let position = start >= 0 ? start : start + (this.#childStarts(node)[index] as number);
    for (; index < children.length; index += 1) {
      if (position > until) break;
      if (container && index > 0 && position > 0) out.byRank[3].push(position);
      position += this.#walk(children[index] as Node, position, until, out);
    }
    return position - start;
  }
}

/** Index of the first child ending after `offset`, or of a zero-length child starting at it. */
function firstChildAt(offsets: number[], offset: number): number {
  let low = 0;
  let high = offsets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((offsets[middle + 1] as number) > offset || (offsets[middle] as number) >= offset) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** How good a place to cut is: a block boundary beats a line break beats a space. */
export type BoundaryRank = 3 | 2 | 1;

/** Offsets where a cut is preferred, by rank, plus offsets where no cut may fall. */
export interface Boundaries {
  /** Ascending offsets per rank (3: between blocks, 2: after a line break, 1: after whitespace). */
  byRank: Record<BoundaryRank, number[]>;
  /** Offsets inside a surrogate pair: never cut there. */
  unsafe: Set<number>;
}
