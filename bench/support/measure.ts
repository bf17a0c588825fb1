/**
 * Interleaved A/B measurement of client CPU and wall time per operation, after a warm-up
 * that runs until the process has settled (and says how long that took).
 */
import { type Stats, stats } from "./stats.js";

/** One thing to measure. */
export interface Variant {
  /** Name in the results. */
  name: string;
  /** One operation. */
  run: () => Promise<unknown> | unknown;
}

/** How long and how often to measure. */
export interface MeasureOptions {
  /** Measured rounds; each runs every variant `perRound` times, in a rotating order. */
  rounds: number;
  /** Operations per variant per round. */
  perRound: number;
  /** Warm-up batches: at least `minBatches`, at most `maxBatches`, each `perRound` per variant. */
  warmup: { minBatches: number; maxBatches: number };
  /** Deliberate slowdown for the gate test: the named variant runs this many times per operation. */
  slowdown?: Record<string, number>;
  /**
   * What CPU and wall time are read from (default: this process's CPU usage and
   * `performance.now()`). The gate's own test injects a clock that counts work, so the
   * measurement it checks does not depend on how loaded the machine is.
   */
  clock?: MeasureClock;
}

/** A source of elapsed CPU and wall time, both in ms from any fixed origin. */
export interface MeasureClock {
  /** CPU time used so far (user + system), in ms. */
  cpuMs(): number;
  /** Wall time so far, in ms. */
  wallMs(): number;
}

/** The real clock: this process's CPU usage and the monotonic wall clock. */
export const processClock: MeasureClock = {
  cpuMs: () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  },
  wallMs: () => performance.now(),
};

/** What the warm-up saw. */
export interface Warmup {
  /** Operations per variant until settled. */
  operations: number;
  /** Whether the last batches agreed within 10% before `maxBatches`. */
  settled: boolean;
  /** CPU per operation of the first batch over that of the settled batches (1.6 = the cold process was 60% slower). */
  coldOverSettled: number;
}

/** Per-variant CPU and wall time per operation, in ms. */
export interface Measured {
  cpuMs: Record<string, number[]>;
  wallMs: Record<string, number[]>;
  warmup: Warmup;
}

/** CPU (user + system of this process) and wall time of `count` runs of `run`, in ms per operation. */
export async function timeBatch(
  run: Variant["run"],
  count: number,
  times = 1,
  clock: MeasureClock = processClock,
): Promise<{ cpu: number; wall: number }> {
  const started = clock.wallMs();
  const cpu = clock.cpuMs();
  for (let i = 0; i < count; i++) for (let k = 0; k < times; k++) await run();
  return { cpu: (clock.cpuMs() - cpu) / count, wall: (clock.wallMs() - started) / count };
}

/** Warm up until the CPU per operation of the last three batches agrees within 10%. */
async function warm(variants: readonly Variant[], options: MeasureOptions): Promise<Warmup> {
  const totals: number[] = [];
  let batches = 0;
  let settled = false;
  while (batches < options.warmup.maxBatches) {
    let total = 0;
    for (const variant of variants)
      total += (await timeBatch(variant.run, options.perRound, 1, options.clock)).cpu;
    totals.push(total);
    batches += 1;
    if (batches >= options.warmup.minBatches && batches >= 3) {
      const last = stats(totals.slice(-3));
      if ((last.max - last.min) / last.median <= 0.1) {
        settled = true;
        break;
      }
    }
  }
  const settledCpu = stats(totals.slice(-3)).median;
  return {
    operations: batches * options.perRound,
    settled,
    coldOverSettled: settledCpu > 0 ? (totals[0] ?? 0) / settledCpu : 1,
  };
}

/** Warm up, then measure every variant in interleaved rounds (the order rotates each round). */
export async function measure(variants: readonly Variant[], options: MeasureOptions): Promise<Measured> {
  const warmup = await warm(variants, options);
  const cpuMs: Record<string, number[]> = {};
  const wallMs: Record<string, number[]> = {};
  for (const variant of variants) {
    cpuMs[variant.name] = [];
    wallMs[variant.name] = [];
  }
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(k + round) % variants.length] as Variant;
      const times = options.slowdown?.[variant.name] ?? 1;
      const time = await timeBatch(variant.run, options.perRound, times, options.clock);
      cpuMs[variant.name]?.push(time.cpu);
      wallMs[variant.name]?.push(time.wall);
    }
  }
  return { cpuMs, wallMs, warmup };
}

/** Median and spread of one variant's CPU per operation. */
export const cpuOf = (measured: Measured, name: string): Stats => stats(measured.cpuMs[name] ?? []);
