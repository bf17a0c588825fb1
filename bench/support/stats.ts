/** Median and spread of repeated measurements. */
export interface Stats {
  /** Median. */
  median: number;
  /** Relative spread: half the interquartile range over the median (0.05 = ±5%). */
  spread: number;
  /** Smallest and largest value. */
  min: number;
  max: number;
  /** Number of values. */
  n: number;
}

const quantile = (sorted: number[], q: number): number => {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] ?? 0) + ((sorted[high] ?? 0) - (sorted[low] ?? 0)) * (at - low);
};

/** Median and spread of `values`. */
export function stats(values: readonly number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  return {
    median,
    spread: median === 0 ? 0 : iqr / 2 / median,
    min: sorted[0] ?? 0,
    max: sorted.at(-1) ?? 0,
    n: sorted.length,
  };
}

/** Stats of the per-round ratios `a[i] / b[i]` (interleaved rounds pair up). */
export function ratioStats(a: readonly number[], b: readonly number[]): Stats {
  return stats(a.map((value, i) => value / (b[i] ?? Number.NaN)));
}

/** Round to `digits` decimals. */
export const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;
