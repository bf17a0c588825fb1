/**
 * The block splitter of `blocks` mode: cuts streamed reply text into blocks at paragraph
 * boundaries outside code fences, between a least and a preferred largest size. A fenced
 * code block is never cut; a `MEDIA:` line stays whole inside the block it ends up in.
 */
import { createLineScan, type LineScan } from "./line-scan.js";

/** Sizes of the blocks {@link createBlockSplitter} cuts. */
export interface BlockSizes {
  /** A block is not cut before it holds this many characters (flushes ignore it). */
  minChars: number;
  /**
   * Preferred largest block. A longer paragraph is cut at a line end; a fence or a single
   * line longer than this goes whole (the adapter splits it at the platform's limit).
   */
  maxChars: number;
}

/** How much of the held text a flush delivers. */
export type FlushScope =
  /** Complete paragraphs only (the tail of an unfinished paragraph stays held). */
  | "paragraphs"
  /** Complete lines outside fences (the idle flush). */
  | "lines"
  /** Everything but an unclosed fence (the agent paused: a tool call, a media item). */
  | "paused"
  /** Everything (the run is done). */
  | "end";

/** Incremental splitter: push deltas, take the blocks that are ready. */
export interface BlockSplitter {
  /** Append a delta; returns the blocks now complete under the size rules. */
  push(delta: string): string[];
  /** Deliver held text regardless of `minChars`, as far as `scope` allows. */
  flush(scope: FlushScope): string[];
  /** The text held back, not yet in any block. */
  readonly pending: string;
}

/** Where the next block ends under the size rules, or `undefined` to wait for more text. */
function sizedCut(scan: LineScan, sizes: BlockSizes): number | undefined {
  const { breaks, lineEnds } = scan;
  const within = (at: number): boolean => at >= sizes.minChars && at <= sizes.maxChars;
  const paragraph = lastOf(breaks, within);
  if (paragraph !== undefined) return paragraph;
  if (scan.length <= sizes.maxChars) return undefined;
  return (
    lastOf(lineEnds, within) ??
    breaks.find((at) => at >= sizes.minChars) ??
    lineEnds.find((at) => at >= sizes.minChars)
  );
}

/** The last of ascending `cuts` that `within` accepts. */
function lastOf(cuts: readonly number[], within: (at: number) => boolean): number | undefined {
  for (let i = cuts.length - 1; i >= 0; i--) if (within(cuts[i] as number)) return cuts[i];
  return undefined;
}

function flushCut(scan: LineScan, scope: FlushScope): number | undefined {
  if (scope === "end") return scan.length;
  if (scope === "paragraphs") return scan.breaks.at(-1);
  if (scope === "lines") return scan.lineEnds.at(-1);
  return scan.openFence() ?? scan.length;
}

/** Create a splitter with the given sizes. */
export function createBlockSplitter(sizes: BlockSizes): BlockSplitter {
  // The held text, read as it grows; a cut starts a new reading of what is left (a few lines).
  let held = createLineScan();
  /** The size rules found no cut in the held text as it was with this many cuts (`undefined`: ask). */
  let waited: { cuts: number; over: boolean } | undefined;
  const take = (cut: number | undefined, out: string[]): boolean => {
    if (cut === undefined || cut <= 0) return false;
    const text = held.text;
    const block = text.slice(0, cut);
    held = createLineScan(text.slice(cut));
    waited = undefined;
    if (block.trim() !== "") out.push(block);
    return true;
  };
  /** The size rules' cut; asked again only when a cut was found since, or the text grew past `maxChars`. */
  const next = (): number | undefined => {
    const cuts = held.breaks.length + held.lineEnds.length;
    const over = held.length > sizes.maxChars;
    if (waited !== undefined && waited.cuts === cuts && (waited.over || !over)) return undefined;
    const cut = sizedCut(held, sizes);
    waited = cut === undefined ? { cuts, over } : undefined;
    return cut;
  };
  return {
    push(delta) {
      held.push(delta);
      const out: string[] = [];
      while (take(next(), out));
      return out;
    },
    flush(scope) {
      const out: string[] = [];
      take(flushCut(held, scope), out);
      return out;
    },
    get pending() {
      return held.text;
    },
  };
}
