/**
 * How work grows with the input, measured as CPU time (user + system) of this process,
 * which another process's load moves far less than wall time.
 */

/** CPU milliseconds `run` takes. */
export function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1000;
}

/** What {@link cpuGrowth} measured. */
export interface Growth {
  /** Least CPU milliseconds of one run at the small size. */
  smallMs: number;
  /** Least CPU milliseconds of one run at `factor` times it. */
  largeMs: number;
  /** `log(largeMs / smallMs) / log(factor)`: 1 when linear, 2 when quadratic. */
  exponent: number;
}

/**
 * The growth exponent of `run(size)` between `size` and `factor × size`.
 *
 * Each round times `factor` runs at the small size as one batch against one run at the
 * large size, so both sides do the same amount of work when the growth is linear: a
 * scheduler tick, a collection or a cold cache costs each side about the same, instead of
 * weighing `factor` times more on a small run of a millisecond or two. One unmeasured run
 * of each first compiles the code; then the fastest of `rounds` interleaved rounds counts
 * (a disturbed round can only make one side slower).
 */
export function cpuGrowth(run: (size: number) => void, size: number, factor: number, rounds = 3): Growth {
  run(size);
  run(size * factor);
  let batchMs = Number.POSITIVE_INFINITY;
  let largeMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    batchMs = Math.min(
      batchMs,
      cpuMs(() => {
        for (let time = 0; time < factor; time += 1) run(size);
      }),
    );
    largeMs = Math.min(
      largeMs,
      cpuMs(() => run(size * factor)),
    );
  }
  const smallMs = batchMs / factor;
  return { smallMs, largeMs, exponent: Math.log(largeMs / Math.max(smallMs, 0.001)) / Math.log(factor) };
}
