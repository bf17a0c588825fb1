import type { Root, RootContent } from "mdast";
import type { MeasuredText, Renderer } from "../adapter/types.js";
import { toPlainText } from "../markdown/plain-text.js";
import { type BlockRenderings, joinBlocks, measureTree, renderMeasured, rootOf } from "./measured.js";
import { type BoundaryRank, TreeOffsets } from "./tree-offsets.js";

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
  const offsets = new TreeOffsets();
  /**
   * Whether the tree is split without rendering it whole first, which only told whether it
   * fits one message: a third of planning a long reply. Packing the blocks answers that too
   * (everything in one chunk), as a cut's probes do for one long block. Only for a tree of
   * more units than the limit (a shorter one most likely fits, and rendering it whole is
   * then its only rendering), and not for a renderer that joins its blocks' renderings (the
   * whole is those, which packing reads anyway).
   */
  const unmeasured =
    whole === undefined &&
    tree.data === undefined &&
    (renderer.blockSeparator === undefined || tree.children.length === 1) &&
    isLong(tree, offsets, limit);
  /** Whether the whole is known not to fit: a block was cut, or a chunk's blocks did not fit. */
  let over = !unmeasured;
  if (whole === undefined && !unmeasured) ({ whole, blocks } = measureTree(renderer, tree));
  // A text that renders as nothing (an empty quote, say) is no message: platforms refuse one.
  if (whole !== undefined && whole.length <= limit)
    return isBlank(whole.text) ? [] : [{ tree, rendered: whole.text }];
  /**
   * Renderings of pieces of cut blocks, by piece: the probe that measured the head a cut keeps
   * is its chunk's rendering too, so the chunk is not rendered again.
   */
  const probed = new WeakMap<RootContent, MeasuredText>();
  /** The rendering of a single block, kept on it: measured once however often it is put back. */
  const renderingOf = (block: Block): MeasuredText =>
    (block.rendered ??= renderMeasured(renderer, rootOf([block.node])));

  /** What a block adds past the first in a chunk, measured when a second block first comes. */
  let separator: number | undefined;
  const queue = new Queue(tree.children, blocks?.byIndex ?? soleBlock(tree, whole));
  const chunks: TextChunk[] = [];
  let current: Block[] = [];
  let estimate = 0;

  const flattened = new WeakSet<RootContent>();
  const flush = (): void => {
    if (current.length > 0) {
      const [count, rendered] = fitting(current);
      for (let index = current.length - 1; index >= count; index -= 1) queue.unshift(current[index] as Block);
      const kept = current.slice(0, count).map((block) => block.node);
      const root = rootOf(kept);
      if (!isBlank(rendered.text))
        chunks.push(
          kept.some((node) => flattened.has(node))
            ? { tree: root, rendered: rendered.text, flattened: true }
            : { tree: root, rendered: rendered.text },
        );
    }
    current = [];
    estimate = 0;
  };
  /** Blocks rendered as one tree: joined from their own renderings where the renderer allows it. */
  const renderedOf = (list: Block[]): MeasuredText => {
    if (list.length === 1) return renderingOf(list[0] as Block);
    if (blocks !== undefined && list.every((block) => block.rendered !== undefined))
      return joinBlocks(
        list.map((block) => block.rendered as MeasuredText),
        blocks,
      );
    return renderMeasured(renderer, rootOf(list.map((block) => block.node)));
  };
  /**
   * How many of the blocks, from the first, make the chunk, and its rendering: the most that
   * fit (or render as nothing, then dropped), at least one. The estimate that gathered them
   * is usually right; when it was not, a bisection over the count keeps the work logarithmic
   * in the blocks, where putting one back at a time rendered the chunk again for each.
   */
  const fitting = (list: Block[]): [number, MeasuredText] => {
    const whole = renderedOf(list);
    if (list.length === 1 || whole.length <= limit || isBlank(whole.text)) return [list.length, whole];
    let low = 1;
    let lowRendered: MeasuredText | undefined;
    let high = list.length;
    while (high - low > 1) {
      const middle = (low + high) >> 1;
      const rendered = renderedOf(list.slice(0, middle));
      if (rendered.length <= limit || isBlank(rendered.text)) [low, lowRendered] = [middle, rendered];
      else high = middle;
    }
    return [low, lowRendered ?? renderedOf(list.slice(0, 1))];
  };
  /** A head's measure: a cut whose best place to end is where a probe ended renders it once. */
  const measureNode = (node: RootContent): number => {
    let measured = probed.get(node);
    if (measured === undefined) {
      measured = renderMeasured(renderer, rootOf([node]));
      probed.set(node, measured);
    }
    return measured.length;
  };
  /** Cut the rest of a block and queue what is left; a rest where nothing fits is flattened to plain text first. */
  const cut = ({ block, from, step }: Rest): void => {
    let [head, next] = cutBlock(offsets, block, from, measureNode, limit, step);
    if (head === undefined && !flattened.has(block)) {
      const plain = para(
        toPlainText(offsets.slice(block, from, Number.POSITIVE_INFINITY) as RootContent, {
          markers: true,
        }),
      );
      flattened.add(plain);
      queue.unshift({ block: plain, from: 0 });
      return;
    }
    if (head === undefined) {
      next = from + smallestSafeCut(offsets, block, from);
      head = offsets.slice(block, from, next) as RootContent;
      if (next >= offsets.length(block)) next = undefined;
    }
    if (flattened.has(block)) flattened.add(head);
    const piece: Block = { node: head, rendered: probed.get(head) };
    current.push(piece);
    if (next === undefined) {
      estimate = renderingOf(piece).length;
      return;
    }
    over = true;
    flush();
    queue.unshift({ block, from: next, step: next - from });
  };
  // A flush may put blocks back in front of the queue: each item waits behind them, and the
  // queue is read to its end after the last flush too.
  for (let item = queue.shift(); item !== undefined || current.length > 0; item = queue.shift()) {
    if (item === undefined || (isRest(item) && current.length > 0)) {
      if (item !== undefined) queue.unshift(item);
      flush();
      continue;
    }
    if (isRest(item)) {
      // The rest of a cut block: measure only what can fit, never the whole rest again.
      cut(item);
      continue;
    }
    const block = item;
    if (current.length === 0 && block.rendered === undefined && offsets.length(block.node) > limit) {
      // Too long to be worth rendering whole to size it: cut it (all of it, if it fits).
      cut({ block: block.node, from: 0 });
      continue;
    }
    const blockSize = renderingOf(block).length;
    if (current.length > 0) separator ??= blocks?.separatorLength ?? separatorOf(renderer);
    const added = current.length === 0 || separator === undefined ? blockSize : separator + blockSize;
    if (estimate + added <= limit) {
      current.push(block);
      estimate += added;
      continue;
    }
    if (current.length > 0) {
      // The first chunk about to close early: the whole may still fit if the estimate ran
      // over (a measure that is not additive). What is gathered with this block is a part of
      // the whole: when even that does not fit, the whole cannot.
      if (!over && renderedOf([...current, block]).length <= limit) {
        const measured = renderMeasured(renderer, tree);
        if (measured.length <= limit)
          return isBlank(measured.text) ? [] : [{ tree, rendered: measured.text }];
      }
      over = true;
      queue.unshift(block);
      flush();
      continue;
    }
    // The first probe of the cut assumes the block's measure is spread evenly over its units.
    const units = offsets.length(block.node);
    cut({ block: block.node, from: 0, step: Math.floor((units * limit) / Math.max(1, blockSize)) });
  }
  const [only] = chunks;
  // A reply that fitted after all is its own tree, as when it was measured whole.
  if (unmeasured && chunks.length === 1 && only !== undefined && holdsAll(only.tree, tree))
    return [{ ...only, tree }];
  return chunks;
}

/** Whether `chunk` holds every block of `tree`, uncut. */
function holdsAll(chunk: Root, tree: Root): boolean {
  return (
    chunk.children.length === tree.children.length &&
    chunk.children.every((node, index) => node === tree.children[index])
  );
}

/** Whether the tree's blocks hold more units than the limit (see {@link TreeOffsets}). */
function isLong(tree: Root, offsets: TreeOffsets, limit: number): boolean {
  let units = 0;
  for (const block of tree.children) {
    units += offsets.length(block);
    if (units > limit) return true;
  }
  return false;
}

/**
 * The rendering of a tree's only block, for a renderer that renders blocks one by one only
 * when it declares so: a root of one block renders as that block alone, so the whole
 * rendering is its rendering, and splitting one long paragraph renders it once less (on
 * Matrix, a fifth of planning such a reply). A root carrying data of its own is left to render again.
 */
function soleBlock(tree: Root, whole: MeasuredText | undefined): MeasuredText[] | undefined {
  return whole !== undefined && tree.children.length === 1 && tree.data === undefined ? [whole] : undefined;
}

function isBlank(text: string): boolean {
  return text.trim() === "";
}

/** What is left of a block after its first `from` units went into chunks. */
interface Rest {
  block: RootContent;
  from: number;
  /** How many units are likely to fit in one chunk (the previous piece's), for the first probe. */
  step?: number;
}

/** A whole block to place, with its rendering on its own once known. */
interface Block {
  node: RootContent;
  rendered?: MeasuredText | undefined;
}

function isRest(item: Block | Rest): item is Rest {
  return "from" in item;
}

/**
 * The blocks still to place, in order: the tree's own, read by index (shifting a large array
 * moves all of it), after those put back in front of them.
 */
class Queue {
  #next = 0;
  readonly #front: Array<Block | Rest> = [];

  constructor(
    private readonly blocks: readonly RootContent[],
    private readonly renderings: readonly MeasuredText[] | undefined,
  ) {}

  /** The next item, `undefined` at the end. */
  shift(): Block | Rest | undefined {
    const front = this.#front.pop();
    if (front !== undefined) return front;
    const index = this.#next++;
    const node = this.blocks[index];
    return node === undefined ? undefined : { node, rendered: this.renderings?.[index] };
  }

  /** Put an item back in front. */
  unshift(item: Block | Rest): void {
    this.#front.push(item);
  }
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
    // Negative for a measure with a fixed cost per message (Matrix's event envelope), which two
    // blocks measured together pay once: counted as 0, each block paid it again, and a chunk
    // of small blocks held a few dozen where thousands fit.
    separator = size([para("a"), para("b")]) - size([para("a")]) - size([para("b")]);
    separators.set(renderer, separator);
  }
  return separator;
}

function para(value: string): RootContent {
  return { type: "paragraph", children: [{ type: "text", value }] };
}

/**
 * Cut the rest of a block, from unit `from`, into the largest head that fits and where the
 * rest then starts (`undefined` when the whole rest fits). The head is `undefined` when not
 * even one unit fits.
 */
function cutBlock(
  offsets: TreeOffsets,
  block: RootContent,
  from: number,
  measure: (node: RootContent) => number,
  limit: number,
  step = limit,
): [RootContent | undefined, number | undefined] {
  const length = offsets.length(block) - from;
  // Each head is sliced once, so the one kept is the very node its probe measured.
  const heads = new Map<number, RootContent | undefined>();
  const headAt = (offset: number): RootContent | undefined => {
    if (!heads.has(offset)) heads.set(offset, offsets.slice(block, from, from + offset) as RootContent);
    return heads.get(offset);
  };
  const headSize = (offset: number): number => {
    const head = headAt(offset);
    return head === undefined ? 0 : measure(head);
  };
  let best = largestFitting(length, headSize, limit, step);
  if (best >= length) return [headAt(length), undefined];
  const boundaries = offsets.boundaries(block, from, from + best + 1);
  while (best > 0 && boundaries.unsafe.has(best)) best -= 1;
  if (best <= 0) return [undefined, from];
  let cut = best;
  for (const rank of [3, 2, 1] as BoundaryRank[]) {
    const candidate = lastAtMost(boundaries.byRank[rank], best);
    if (candidate !== undefined && candidate * 2 >= best && candidate > 0 && headSize(candidate) <= limit) {
      cut = candidate;
      break;
    }
  }
  return [headAt(cut), from + cut];
}

/** The smallest cut of the rest from `from` that never splits a surrogate pair: 1, or 2 after a high surrogate. */
function smallestSafeCut(offsets: TreeOffsets, block: RootContent, from: number): number {
  return offsets.boundaries(block, from, from + 2).unsafe.has(1) ? 2 : 1;
}

/**
 * Largest offset in [0, length] whose head measures within `limit`. The first probe is at
 * `first` units (what fitted last time, or the block's units in proportion to its measure:
 * a probe far past the answer renders far more than fits), growing in proportion to the
 * room left while it fits (to where that proportion says the head fills the limit, not one
 * past it: a measure that steps past the limit there then needs no third probe); then
 * interpolation between the bounds, with a bisection whenever two probes did not halve the
 * distance between them, so the search stays logarithmic. The work is bounded by what fits,
 * not by the length.
 */
function largestFitting(
  length: number,
  headSize: (offset: number) => number,
  limit: number,
  first: number,
): number {
  let low = 0;
  let lowSize = 0;
  let probe = Math.max(1, Math.min(length, first));
  let size = headSize(probe);
  while (size <= limit) {
    low = probe;
    lowSize = size;
    if (probe >= length) return length;
    probe = Math.min(
      length,
      size === 0 ? probe * 2 : Math.max(probe + 1, Math.floor((probe * limit) / size)),
    );
    size = headSize(probe);
  }
  let high = probe;
  let highSize = size;
  /** The bounds' distance before each of the last two probes (older first). */
  const widths = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  while (high - low > 1) {
    // Bisect only when the last two probes did not halve the distance: interpolating after a
    // guess that landed just under the answer finds it with one more probe, where a bisection
    // rendered half of a first probe that may have been tens of times too long.
    const bisect = high - low > (widths[0] as number) / 2;
    widths.shift();
    widths.push(high - low);
    const guess = bisect
      ? Math.floor((low + high) / 2)
      : low + Math.floor(((limit - lowSize) * (high - low)) / Math.max(1, highSize - lowSize));
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
