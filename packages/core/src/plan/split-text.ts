import type { Root, RootContent } from "mdast";
import type { Renderer } from "../adapter/types.js";
import { type BoundaryRank, findBoundaries, nodeLength, splitNode } from "./tree-offsets.js";

/** One chunk of text: its piece of the tree and its rendering. */
export interface TextChunk {
  /** The chunk's tree (complete: every node keeps its formatting ancestors). */
  tree: Root;
  /** `renderer.render(tree)`. */
  rendered: string;
}

/**
 * Split a Markdown tree into chunks whose rendering fits `limit` as the renderer measures
 * it. Top-level blocks are packed greedily; a block too large on its own is cut at the
 * last block boundary, else line break, else whitespace that keeps the piece within the
 * limit and lies in the second half of what fits (else at the largest fitting offset,
 * never inside a surrogate pair or a leaf such as an image or raw HTML). Nothing is
 * dropped. Each block and each chunk is rendered a bounded number of times, so the cost
 * is near-linear in the text length.
 *
 * A piece that cannot fit even one offset unit (e.g. a link whose URL alone exceeds the
 * limit) is emitted over the limit; the platform then refuses that part.
 */
export function splitText(tree: Root, renderer: Renderer, limit: number): TextChunk[] {
  const size = (nodes: RootContent[]): number => renderer.measure(renderer.render(rootOf(nodes)));
  const whole = renderer.render(tree);
  if (renderer.measure(whole) <= limit) return tree.children.length === 0 ? [] : [{ tree, rendered: whole }];

  const separator = Math.max(0, size([para("a"), para("b")]) - size([para("a")]) - size([para("b")]));
  const queue = [...tree.children];
  const chunks: TextChunk[] = [];
  let current: RootContent[] = [];
  let estimate = 0;

  const flush = (): void => {
    while (current.length > 0) {
      const root = rootOf(current);
      const rendered = renderer.render(root);
      if (current.length === 1 || renderer.measure(rendered) <= limit) {
        chunks.push({ tree: root, rendered });
        break;
      }
      queue.unshift(current.pop() as RootContent);
    }
    current = [];
    estimate = 0;
  };

  while (queue.length > 0) {
    const block = queue.shift() as RootContent;
    const blockSize = size([block]);
    const added = current.length === 0 ? blockSize : separator + blockSize;
    if (estimate + added <= limit) {
      current.push(block);
      estimate += added;
      continue;
    }
    if (current.length > 0) {
      flush();
      queue.unshift(block);
      continue;
    }
    const [head, tail] = cutBlock(block, (node) => size([node]) <= limit);
    current.push(head);
    flush();
    if (tail !== undefined) queue.unshift(tail);
  }
  flush();
  return chunks;
}

function rootOf(children: RootContent[]): Root {
  return { type: "root", children };
}

function para(value: string): RootContent {
  return { type: "paragraph", children: [{ type: "text", value }] };
}

/** Cut an oversized block into a head that fits (when anything fits) and the rest. */
function cutBlock(
  block: RootContent,
  fits: (node: RootContent) => boolean,
): [RootContent, RootContent | undefined] {
  const length = nodeLength(block);
  const boundaries = findBoundaries(block);
  const headFits = (offset: number): boolean => {
    const [head] = splitNode(block, offset);
    return head !== undefined && fits(head);
  };
  let best = largestFitting(length, headFits);
  while (best > 0 && boundaries.unsafe.has(best)) best -= 1;
  let cut = best;
  for (const rank of [3, 2, 1] as BoundaryRank[]) {
    const candidate = lastAtMost(boundaries.byRank[rank], best);
    if (candidate !== undefined && candidate * 2 >= best && candidate > 0 && headFits(candidate)) {
      cut = candidate;
      break;
    }
  }
  if (cut <= 0) cut = boundaries.unsafe.has(1) ? 2 : 1;
  const [head, tail] = splitNode(block, cut);
  return [head ?? block, head === undefined ? undefined : tail];
}

/** Largest offset in [0, length) whose head fits: exponential then binary search. */
function largestFitting(length: number, fits: (offset: number) => boolean): number {
  let low = 0;
  let high = length;
  let probe = Math.max(1, Math.min(length - 1, 256));
  while (probe < high && fits(probe)) {
    low = probe;
    probe = Math.min(high, probe * 2);
  }
  if (probe < high) high = probe;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}

function lastAtMost(sorted: number[], limit: number): number | undefined {
  let low = 0;
  let high = sorted.length - 1;
  let found: number | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = sorted[middle] as number;
    if (value <= limit) {
      found = value;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
