/**
 * The block splitter of `blocks` mode: cuts streamed reply text into blocks at paragraph
 * boundaries outside code fences, between a least and a preferred largest size. A fenced
 * code block is never cut; a `MEDIA:` line stays whole inside the block it ends up in.
 */

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

/** Where a held text may be cut. */
interface Cuts {
  /** After a blank line or a closing fence line, outside fences: a paragraph boundary. */
  breaks: number[];
  /** After any complete line outside fences. */
  lineEnds: number[];
  /** Start of a fence still open at the end of the text. */
  openFence: number | undefined;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Scan `text` line by line for places where a block may end. */
export function findCuts(text: string): Cuts {
  const breaks: number[] = [];
  const lineEnds: number[] = [];
  let fence: { marker: string; start: number } | undefined;
  let start = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
    const line = text.slice(start, end);
    const next = end + 1;
    if (fence) {
      if (closesFence(line, fence.marker)) {
        fence = undefined;
        breaks.push(next);
        lineEnds.push(next);
      }
    } else {
      const open = FENCE_OPEN.exec(line);
      if (open?.[1] && !(open[1].startsWith("`") && open[2]?.includes("`")))
        fence = { marker: open[1], start };
      else {
        if (line.trim() === "") breaks.push(next);
        lineEnds.push(next);
      }
    }
    start = next;
  }
  // An unfinished last line that starts a fence is treated as one.
  const tail = FENCE_OPEN.exec(text.slice(start));
  const openFence = fence?.start ?? (tail ? start : undefined);
  return { breaks, lineEnds, openFence };
}

function closesFence(line: string, marker: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return match?.[1] !== undefined && match[1][0] === marker[0] && match[1].length >= marker.length;
}

/** Where the next block ends under the size rules, or `undefined` to wait for more text. */
function sizedCut(text: string, sizes: BlockSizes): number | undefined {
  const { breaks, lineEnds } = findCuts(text);
  const within = (at: number): boolean => at >= sizes.minChars && at <= sizes.maxChars;
  const paragraph = breaks.filter(within).at(-1);
  if (paragraph !== undefined) return paragraph;
  if (text.length <= sizes.maxChars) return undefined;
  return (
    lineEnds.filter(within).at(-1) ??
    breaks.find((at) => at >= sizes.minChars) ??
    lineEnds.find((at) => at >= sizes.minChars)
  );
}

function flushCut(text: string, scope: FlushScope): number | undefined {
  if (scope === "end") return text.length;
  const cuts = findCuts(text);
  if (scope === "paragraphs") return cuts.breaks.at(-1);
  if (scope === "lines") return cuts.lineEnds.at(-1);
  return cuts.openFence ?? text.length;
}

/** Create a splitter with the given sizes. */
export function createBlockSplitter(sizes: BlockSizes): BlockSplitter {
  let held = "";
  const take = (cut: number | undefined, out: string[]): boolean => {
    if (cut === undefined || cut <= 0) return false;
    const block = held.slice(0, cut);
    held = held.slice(cut);
    if (block.trim() !== "") out.push(block);
    return true;
  };
  return {
    push(delta) {
      held += delta;
      const out: string[] = [];
      while (take(sizedCut(held, sizes), out));
      return out;
    },
    flush(scope) {
      const out: string[] = [];
      take(flushCut(held, scope), out);
      return out;
    },
    get pending() {
      return held;
    },
  };
}
