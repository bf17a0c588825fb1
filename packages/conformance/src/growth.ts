/**
 * How work grows with the input, measured as CPU time (user + system) of this process,
 * which another process's load moves far less than wall time: the least of a few
 * interleaved runs at a size and at `factor` times it.
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
  /** Least CPU milliseconds at the small size. */
  smallMs: number;
  /** Least CPU milliseconds at `factor` times it. */
  largeMs: number;
  /** `log(largeMs / smallMs) / log(factor)`: 1 when linear, 2 when quadratic. */
  exponent: number;
}

/**
 * The growth exponent of `run(size)` between `size` and `factor × size`, from the fastest
 * of `rounds` interleaved runs of each (a disturbed run can only make one slower).
 */
export function cpuGrowth(run: (size: number) => void, size: number, factor: number, rounds = 3): Growth {
  let smallMs = Number.POSITIVE_INFINITY;
  let largeMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    smallMs = Math.min(
      smallMs,
      cpuMs(() => run(size)),
    );
    largeMs = Math.min(
      largeMs,
      cpuMs(() => run(size * factor)),
    );
  }
  return { smallMs, largeMs, exponent: Math.log(largeMs / Math.max(smallMs, 0.001)) / Math.log(factor) };
}
