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
 * never inside a surrogate pair or a leaf such as an image). Nothing is
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

  const tails = new WeakSet<RootContent>();
  const measureNode = (node: RootContent): number => size([node]);
  while (queue.length > 0) {
    const block = queue.shift() as RootContent;
    if (current.length === 0 && tails.has(block)) {
      // The rest of a cut block: measure only what can fit, never the whole rest again.
      const [head, tail] = cutBlock(block, measureNode, limit);
      if (tail === undefined) {
        current.push(head);
        estimate = size([head]);
        continue;
      }
      current.push(head);
      flush();
      tails.add(tail);
      queue.unshift(tail);
      continue;
    }
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
    const [head, tail] = cutBlock(block, measureNode, limit);
    current.push(head);
    flush();
    if (tail !== undefined) {
      tails.add(tail);
      queue.unshift(tail);
    }
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

/** Cut a block into the largest head that fits (when anything fits) and the rest (if any). */
function cutBlock(
  block: RootContent,
  measure: (node: RootContent) => number,
  limit: number,
): [RootContent, RootContent | undefined] {
  const length = nodeLength(block);
  const headSize = (offset: number): number => {
    const [head] = splitNode(block, offset);
    return head === undefined ? 0 : measure(head);
  };
  let best = largestFitting(length, headSize, limit);
  if (best >= length) return [block, undefined];
  const boundaries = findBoundaries(block, best + 1);
  while (best > 0 && boundaries.unsafe.has(best)) best -= 1;
  let cut = best;
  for (const rank of [3, 2, 1] as BoundaryRank[]) {
    const candidate = lastAtMost(boundaries.byRank[rank], best);
    if (candidate !== undefined && candidate * 2 >= best && candidate > 0 && headSize(candidate) <= limit) {
      cut = candidate;
      break;
    }
  }
  if (cut <= 0) cut = boundaries.unsafe.has(1) ? 2 : 1;
  const [head, tail] = splitNode(block, cut);
  return [head ?? block, head === undefined ? undefined : tail];
}

/**
 * Largest offset in [0, length] whose head measures within `limit`. The first probe is
 * at `limit` units (rendered size is usually close to the offset), growing in proportion
 * to the room left while it fits; then interpolation between the bounds, alternating with bisection so
 * the search stays logarithmic. The work is bounded by what fits, not by the length.
 */
function largestFitting(length: number, headSize: (offset: number) => number, limit: number): number {
  let low = 0;
  let lowSize = 0;
  let probe = Math.max(1, Math.min(length, limit));
  let size = headSize(probe);
  while (size <= limit) {
    low = probe;
    lowSize = size;
    if (probe >= length) return length;
    probe = Math.min(
      length,
      size === 0 ? probe * 2 : Math.max(probe + 1, Math.floor((probe * limit) / size) + 1),
    );
    size = headSize(probe);
  }
  let high = probe;
  let highSize = size;
  for (let step = 0; high - low > 1; step += 1) {
    const interpolated =
      low + Math.floor(((limit - lowSize) * (high - low)) / Math.max(1, highSize - lowSize));
    const guess = step % 2 === 0 ? interpolated : Math.floor((low + high) / 2);
    const middle = Math.min(high - 1, Math.max(low + 1, guess));
    const measured = headSize(middle);
    if (measured <= limit) {
      low = middle;
      lowSize = measured;
    } else {
      high = middle;
      highSize = measured;
    }
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
