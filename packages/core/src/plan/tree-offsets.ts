import type { Parent, RootContent } from "mdast";

/**
 * Offsets into a Markdown block: every literal node (`text`, `inlineCode`, `code`, raw
 * `html`, which chat renderers show as text) counts its UTF-16 units; every other leaf
 * (image, line break, rule) counts one and can never be cut. A block is split at an offset into two trees that both keep the
 * formatting ancestors of their text.
 */

type Node = RootContent;

const lengths = new WeakMap<Node, number>();

/** Length of a node in offset units (memoized). */
export function nodeLength(node: Node): number {
  const known = lengths.get(node);
  if (known !== undefined) return known;
  let length: number;
  if (isSplittableLiteral(node)) length = node.value.length;
  else if ("children" in node)
    length = node.children.reduce((sum: number, child) => sum + nodeLength(child), 0);
  else length = 1;
  lengths.set(node, length);
  return length;
}

function isSplittableLiteral(
  node: Node,
): node is Extract<Node, { type: "text" | "inlineCode" | "code" | "html" }> {
  return node.type === "text" || node.type === "inlineCode" || node.type === "code" || node.type === "html";
}

/**
 * Split a node at `offset`: the left part holds the first `offset` units, the right part
 * the rest; either is `undefined` when empty. A code block cut after a line break loses
 * that line break (each half is a complete block with the same language); an ordered
 * list's right half keeps its numbering.
 */
export function splitNode(node: Node, offset: number): [Node | undefined, Node | undefined] {
  const length = nodeLength(node);
  if (offset <= 0) return [undefined, node];
  if (offset >= length) return [node, undefined];
  if (isSplittableLiteral(node)) {
    let head = node.value.slice(0, offset);
    if (node.type === "code" && head.endsWith("\n")) head = head.slice(0, -1);
    return [
      { ...node, value: head },
      { ...node, value: node.value.slice(offset) },
    ];
  }
  if (!("children" in node)) return [node, undefined];
  const left: Node[] = [];
  const right: Node[] = [];
  let firstRight = -1;
  let position = 0;
  node.children.forEach((child: Node, index: number) => {
    const childLength = nodeLength(child);
    const [head, tail] = splitNode(child, offset - position);
    if (head !== undefined) left.push(head);
    if (tail !== undefined) {
      if (firstRight < 0) firstRight = index;
      right.push(tail);
    }
    position += childLength;
  });
  const rightNode = { ...node, children: right } as Node;
  if (rightNode.type === "list" && rightNode.ordered) rightNode.start = (rightNode.start ?? 1) + firstRight;
  return [{ ...node, children: left } as Node, rightNode];
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

const BLOCK_CONTAINERS = new Set(["blockquote", "list", "listItem"]);

/** Collect the preferred cut offsets of a block up to offset `until`, in one walk. */
export function findBoundaries(node: Node, until: number): Boundaries {
  const boundaries: Boundaries = { byRank: { 3: [], 2: [], 1: [] }, unsafe: new Set() };
  walk(node, 0, until, boundaries);
  return boundaries;
}

function walk(node: Node, start: number, until: number, out: Boundaries): void {
  if (isSplittableLiteral(node)) {
    const value = node.value;
    const end = Math.min(value.length, until - start);
    for (let i = 0; i < end; i += 1) {
      const code = value.charCodeAt(i);
      if (code === 10) out.byRank[2].push(start + i + 1);
      else if (code === 32 || code === 9) out.byRank[1].push(start + i + 1);
      else if (code >= 0xd800 && code <= 0xdbff) out.unsafe.add(start + i + 1);
    }
    return;
  }
  if (node.type === "break") {
    out.byRank[2].push(start + 1);
    return;
  }
  if (!("children" in node)) return;
  const container = BLOCK_CONTAINERS.has(node.type);
  let position = start;
  for (const [index, child] of (node as Parent).children.entries()) {
    if (position > until) break;
    if (container && index > 0) out.byRank[3].push(position);
    walk(child, position, until, out);
    position += nodeLength(child);
  }
}
