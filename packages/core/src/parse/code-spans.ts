/**
 * Inline code spans (CommonMark §6.1) inside one leaf block, found in linear time: backtick
 * runs are collected once, and each opener looks for the next run of the same length
 * through a per-length cursor that only moves forward.
 */

/**
 * Append the code spans found in a leaf block to `out` as `[start, end)` pairs (backticks
 * included). `segments` are the block's lines as `[start, end)` offsets into `text`; a span
 * may cross from one segment to the next, never out of the block.
 */
export function findCodeSpans(text: string, segments: readonly number[], out: number[]): void {
  // Runs of backticks as parallel arrays: start offset, length, first backtick escaped.
  const starts: number[] = [];
  const lengths: number[] = [];
  const escaped: boolean[] = [];
  for (let s = 0; s < segments.length; s += 2) {
    const from = segments[s] ?? 0;
    const to = segments[s + 1] ?? 0;
    let i = text.indexOf("`", from);
    while (i !== -1 && i < to) {
      let slashes = 0;
      while (i - slashes - 1 >= from && text.charCodeAt(i - slashes - 1) === 92) slashes++;
      let end = i;
      while (end < to && text.charCodeAt(end) === 96) end++;
      starts.push(i);
      lengths.push(end - i);
      escaped.push(slashes % 2 === 1);
      i = text.indexOf("`", end);
    }
  }
  if (starts.length < 2) return;
  const byLength = new Map<number, number[]>();
  lengths.forEach((length, index) => {
    const list = byLength.get(length);
    if (list) list.push(index);
    else byLength.set(length, [index]);
  });
  const cursor = new Map<number, number>();
  let i = 0;
  while (i < starts.length) {
    const start = starts[i] ?? 0;
    const openLength = (lengths[i] ?? 0) - (escaped[i] ? 1 : 0);
    const closer = openLength > 0 ? nextRun(byLength, cursor, openLength, i) : undefined;
    if (closer === undefined) {
      i++;
      continue;
    }
    out.push(start + (escaped[i] ? 1 : 0), (starts[closer] ?? 0) + (lengths[closer] ?? 0));
    i = closer + 1;
  }
}

/** The index of the first run of `length` backticks after run `after`, if any. */
function nextRun(
  byLength: Map<number, number[]>,
  cursor: Map<number, number>,
  length: number,
  after: number,
): number | undefined {
  const list = byLength.get(length);
  if (!list) return undefined;
  let at = cursor.get(length) ?? 0;
  while (at < list.length && (list[at] ?? 0) <= after) at++;
  cursor.set(length, at);
  return list[at];
}
