/**
 * `indexOf` with memory, for scanners that ask "where is the next X from here" at
 * positions that mostly move forward: the answer is reused while the question stays
 * inside the stretch already searched, so repeated failed attempts stay linear.
 */
export class NextIndex {
  private from = -1;
  private found = -1;

  constructor(
    private readonly text: string,
    private readonly find: (text: string, from: number) => number,
  ) {}

  /** The first match at or after `from`, or -1. */
  at(from: number): number {
    if (from >= this.from && this.from !== -1 && (this.found === -1 || from <= this.found)) return this.found;
    this.from = from;
    this.found = this.find(this.text, from);
    return this.found;
  }
}

/** A {@link NextIndex} for the first of a set of characters. */
export function nextOf(text: string, chars: string): NextIndex {
  const codes = new Set([...chars].map((c) => c.charCodeAt(0)));
  return new NextIndex(text, (t, from) => {
    for (let i = from; i < t.length; i++) if (codes.has(t.charCodeAt(i))) return i;
    return -1;
  });
}
