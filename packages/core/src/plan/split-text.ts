import type { Root, RootContent } from "mdast";
import type { MeasuredText, Renderer } from "../adapter/types.js";
import { toPlainText } from "../markdown/plain-text.js";
import { type BlockRenderings, joinBlocks, measureTree, renderMeasured, rootOf } from "./measured.js";
import { type BoundaryRank, findBoundaries, nodeLength, splitNode } from "./tree-offsets.js";

/** One chunk of text: its piece of the tree and its rendering. */
export interface TextChunk {
  /** The chunk's tree (complete: every node keeps its formatting ancestors). */
  tree: Root;
  /** `renderer.render(tree)`. */
  rendered: string;
  /** Part of it lost its formatting: a piece of markup alone (e.g. a link's URL) was over the limit. */
  flattened?: true;
}

/**
 * Split a Markdown tree into chunks whose rendering fits `limit` as the renderer measures
 * it. Top-level blocks are packed greedily; a block too large on its own is cut at the
 * last block boundary, else line break, else whitespace that keeps the piece within the
 * limit and lies in the second half of what fits (else at the largest fitting offset,
 * never inside a surrogate pair or a leaf such as an image). Nothing is
 * dropped. Each block and each chunk is rendered a bounded number of times (and measured
 * in the same walk when the renderer has `renderMeasured`), so the cost is near-linear in
 * the text length.
 *
 * A block where not even one unit of text fits with its formatting (e.g. a link whose URL
 * alone exceeds the limit) is replaced by its readable plain text (`text (url)`) and split
 * as such; its chunks are marked `flattened`. Only if even plain text cannot fit one unit
 * (a limit smaller than the renderer's own overhead) is a chunk emitted over the limit.
 *
 * `whole` is the tree rendered and measured, for a caller that has done so already;
 * `blocks` its top-level blocks rendered one by one (see `Renderer.blockSeparator`), which
 * are then measured and joined into chunks without rendering them again.
 */
export function splitText(
  tree: Root,
  renderer: Renderer,
  limit: number,
  whole?: MeasuredText,
  blocks?: BlockRenderings,
): TextChunk[] {
  if (whole === undefined) ({ whole, blocks } = measureTree(renderer, tree));
  if (whole.length <= limit) return tree.children.length === 0 ? [] : [{ tree, rendered: whole.text }];
  const size = (nodes: RootContent[]): number =>
    (nodes.length === 1 ? blocks?.byBlock.get(nodes[0] as RootContent)?.length : undefined) ??
    sizeOf(renderer, nodes);

  const separator = blocks?.separatorLength ?? separatorOf(renderer);
  const queue = [...tree.children];
  const chunks: TextChunk[] = [];
  let current: RootContent[] = [];
  let estimate = 0;

  const flattened = new WeakSet<RootContent>();
  const flush = (): void => {
    while (current.length > 0) {
      const root = rootOf(current);
      const rendered =
        (blocks === undefined ? undefined : joinBlocks(current, blocks)) ?? renderMeasured(renderer, root);
      if (current.length === 1 || rendered.length <= limit) {
        chunks.push(
          current.some((node) => flattened.has(node))
            ? { tree: root, rendered: rendered.text, flattened: true }
            : { tree: root, rendered: rendered.text },
        );
        break;
      }
      queue.unshift(current.pop() as RootContent);
    }
    current = [];
    estimate = 0;
  };
  const tails = new WeakSet<RootContent>();
  const measureNode = (node: RootContent): number => size([node]);
  /** Cut `block` and queue the rest; a block where nothing fits is flattened to plain text first. */
  const cut = (block: RootContent): void => {
    let [head, tail] = cutBlock(block, measureNode, limit);
    if (head === undefined && !flattened.has(block)) {
      const plain = para(toPlainText(block, { markers: true }));
      flattened.add(plain);
      tails.add(plain);
      queue.unshift(plain);
      return;
    }
    if (head === undefined) [head, tail] = splitNode(block, smallestSafeCut(block));
    if (flattened.has(block)) {
      if (head !== undefined) flattened.add(head);
      if (tail !== undefined) flattened.add(tail);
    }
    current.push(head ?? block);
    if (tail === undefined) {
      estimate = size(current);
      return;
    }
    flush();
    tails.add(tail);
    queue.unshift(tail);
  };
  while (queue.length > 0) {
    const block = queue.shift() as RootContent;
    if (current.length === 0 && tails.has(block)) {
      // The rest of a cut block: measure only what can fit, never the whole rest again.
      cut(block);
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
    cut(block);
  }
  flush();
  return chunks;
}

/** The measured length of `nodes` rendered as one tree. */
function sizeOf(renderer: Renderer, nodes: RootContent[]): number {
  return renderMeasured(renderer, rootOf(nodes)).length;
}

const separators = new WeakMap<Renderer, number>();

/** What the renderer adds between two blocks (measured once per renderer). */
function separatorOf(renderer: Renderer): number {
  let separator = separators.get(renderer);
  if (separator === undefined) {
    const size = (nodes: RootContent[]): number => sizeOf(renderer, nodes);
    separator = Math.max(0, size([para("a"), para("b")]) - size([para("a")]) - size([para("b")]));
    separators.set(renderer, separator);
  }
  return separator;
}

function para(value: string): RootContent {
  return { type: "paragraph", children: [{ type: "text", value }] };
}

/**
 * Cut a block into the largest head that fits and the rest (`undefined` when the whole
 * block fits). The head is `undefined` when not even one unit fits.
 */
function cutBlock(
  block: RootContent,
  measure: (node: RootContent) => number,
  limit: number,
): [RootContent | undefined, RootContent | undefined] {
  const length = nodeLength(block);
  const headSize = (offset: number): number => {
    const [head] = splitNode(block, offset);
    return head === undefined ? 0 : measure(head);
  };
  let best = largestFitting(length, headSize, limit);
  if (best >= length) return [block, undefined];
  const boundaries = findBoundaries(block, best + 1);
  while (best > 0 && boundaries.unsafe.has(best)) best -= 1;
  if (best <= 0) return [undefined, block];
  let cut = best;
  for (const rank of [3, 2, 1] as BoundaryRank[]) {
    const candidate = lastAtMost(boundaries.byRank[rank], best);
    if (candidate !== undefined && candidate * 2 >= best && candidate > 0 && headSize(candidate) <= limit) {
      cut = candidate;
      break;
    }
  }
  return splitNode(block, cut);
}

/** The smallest cut that never splits a surrogate pair: 1, or 2 after a high surrogate. */
function smallestSafeCut(block: RootContent): number {
  return findBoundaries(block, 2).unsafe.has(1) ? 2 : 1;
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
