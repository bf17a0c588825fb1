/**
 * Inline code spans (CommonMark §6.1) inside one leaf block, found in linear time: backtick
 * runs are collected once (in typed arrays, so big blocks make little garbage), and each
 * opener jumps to the next run of the same length through a precomputed link.
 */

/** Backtick runs of a block: start offsets and lengths; a negative length marks a run whose first backtick is escaped. */
interface Runs {
  starts: Int32Array;
  lengths: Int32Array;
  count: number;
}

/**
 * Append the code spans found in a leaf block to `out` as `[start, end)` pairs (backticks
 * included). `segments` are the block's lines as `[start, end)` offsets into `text`; a span
 * may cross from one segment to the next, never out of the block.
 */
export function findCodeSpans(text: string, segments: readonly number[], out: number[]): void {
  const runs = collectRuns(text, segments);
  if (runs.count < 2) return;
  const { starts, lengths, count } = runs;
  // next[i]: the next run with the same raw length as run i, or -1.
  const next = new Int32Array(count);
  const lastOfLength = new Map<number, number>();
  for (let i = count - 1; i >= 0; i--) {
    const length = Math.abs(lengths[i] ?? 0);
    next[i] = lastOfLength.get(length) ?? -1;
    lastOfLength.set(length, i);
  }
  let escapedCursor: Map<number, number> | undefined;
  let i = 0;
  while (i < count) {
    const raw = lengths[i] ?? 0;
    let closer = -1;
    if (raw > 0) closer = next[i] ?? -1;
    else if (raw < -1) {
      // An escaped first backtick: the rest of the run opens, looking for a shorter closer.
      escapedCursor ??= new Map();
      closer = nextOfLength(lengths, count, -raw - 1, i, escapedCursor);
    }
    if (closer === -1) {
      i++;
      continue;
    }
    out.push((starts[i] ?? 0) + (raw < 0 ? 1 : 0), (starts[closer] ?? 0) + Math.abs(lengths[closer] ?? 0));
    i = closer + 1;
  }
}

function collectRuns(text: string, segments: readonly number[]): Runs {
  let starts: Int32Array = new Int32Array(16);
  let lengths: Int32Array = new Int32Array(16);
  let count = 0;
  for (let s = 0; s < segments.length; s += 2) {
    const from = segments[s] ?? 0;
    const to = segments[s + 1] ?? 0;
    for (let i = text.indexOf("`", from); i !== -1 && i < to; ) {
      let slashes = 0;
      while (i - slashes - 1 >= from && text.charCodeAt(i - slashes - 1) === 92) slashes++;
      let end = i;
      while (end < to && text.charCodeAt(end) === 96) end++;
      if (count === starts.length) {
        starts = grow(starts);
        lengths = grow(lengths);
      }
      starts[count] = i;
      lengths[count] = slashes % 2 === 1 ? -(end - i) : end - i;
      count++;
      i = text.indexOf("`", end);
    }
  }
  return { starts, lengths, count };
}

function grow(array: Int32Array): Int32Array {
  const bigger = new Int32Array(array.length * 2);
  bigger.set(array);
  return bigger;
}

/**
 * The first run after `after` whose raw length is `length`. `cursor` remembers, per
 * length, where the last search stopped; openers come in order, so each moves forward only.
 */
function nextOfLength(
  lengths: Int32Array,
  count: number,
  length: number,
  after: number,
  cursor: Map<number, number>,
): number {
  let at = Math.max(cursor.get(length) ?? 0, after + 1);
  while (at < count && Math.abs(lengths[at] ?? 0) !== length) at++;
  cursor.set(length, at);
  return at < count ? at : -1;
}
