/**
 * Where the code is in a reply: fenced and indented code blocks and inline code spans,
 * following CommonMark's block structure (block quotes, list items, lazy paragraph
 * continuation, fences that close only on a bare closing line, indented code that cannot
 * interrupt a paragraph). One pass over the lines, linear in the length of the text.
 */
import { BlockScanner } from "./block-scanner.js";

/** Sorted, non-overlapping `[start, end)` offsets of code in a text. */
export interface CodeRanges {
  /** Flattened pairs: start0, end0, start1, end1, … in increasing order. */
  readonly bounds: readonly number[];
  /** Where the last lookup ended: lookups that move forward walk on from here. */
  hint?: number;
}

/** Find every code block and code span of `text` (offsets into `text`). */
export function findCodeRanges(text: string): CodeRanges {
  const out: number[] = [];
  if (!/[`~\t]| {4}/.test(text)) return { bounds: out };
  new BlockScanner(text, out).run();
  let sorted = true;
  for (let i = 2; i < out.length && sorted; i += 2) sorted = (out[i] ?? 0) >= (out[i - 1] ?? 0);
  if (sorted) return { bounds: out };
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < out.length; i += 2) pairs.push([out[i] ?? 0, out[i + 1] ?? 0]);
  pairs.sort((a, b) => a[0] - b[0]);
  return { bounds: pairs.flat() };
}

/**
 * Index (into `bounds`, even) of the first range that ends after `offset`. Scans ask in
 * increasing order, so a lookup walks a few steps on from the previous one; a lookup that
 * goes back, or far ahead, binary-searches. This keeps in-order scans linear.
 */
function firstEndingAfter(ranges: CodeRanges, offset: number): number {
  const { bounds } = ranges;
  let i = ranges.hint ?? 0;
  if (i > 0 && (bounds[i - 1] ?? 0) > offset) i = 0;
  for (let steps = 0; i < bounds.length && (bounds[i + 1] ?? 0) <= offset; steps++) {
    if (steps === 8) {
      i = search(bounds, offset, i / 2);
      break;
    }
    i += 2;
  }
  ranges.hint = i;
  return i;
}

/** Binary search from pair `lo` for the first range that ends after `offset`. */
function search(bounds: readonly number[], offset: number, from: number): number {
  let lo = from;
  let hi = bounds.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((bounds[mid * 2 + 1] ?? 0) <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo * 2;
}

/** Whether `[start, end)` overlaps no code range. */
export function isProse(ranges: CodeRanges, start: number, end: number): boolean {
  const first = ranges.bounds[firstEndingAfter(ranges, start)];
  return first === undefined || first >= end;
}

/** Whether `offset` lies inside a code range. */
export function inCode(ranges: CodeRanges, offset: number): boolean {
  return !isProse(ranges, offset, offset + 1);
}

/** Whether a code range starts in `[from, to)` and runs past `to`. */
export function codeRunsPast(ranges: CodeRanges, from: number, to: number): boolean {
  const start = ranges.bounds[firstEndingAfter(ranges, to)];
  return start !== undefined && start >= from && start < to;
}
