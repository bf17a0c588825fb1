/**
 * What the adapter benchmarks (bench/telegram.ts, bench/slack.ts) share: a clock that skips
 * pacing waits, per-message wall and CPU time of three variants in rotated rounds, a large
 * document on disk, and the peak RSS growth of one upload.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Clock } from "@outbox/core";

/** A clock whose sleeps return at once (virtual time), so pacing costs nothing. */
export function skippingClock(): Clock {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
}

/** Median of the values. */
export const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Round to `digits` decimals. */
export const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Wall time and this process's CPU time (the emulator runs elsewhere) per call, in ms. */
export async function timeEach(
  run: () => Promise<unknown>,
  count: number,
): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) await run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / count, cpu: (used.user + used.system) / 1000 / count };
}

/** Bare client, whole adapter, transport alone: median wall and CPU ms per call of each, with ratios to bare. */
export interface VariantTimes {
  bareMs: number;
  adapterMs: number;
  ratio: number;
  transportMs: number;
  transportRatio: number;
  /** CPU time of the sending process per message (load on the machine barely moves it). */
  cpuMs: { bare: number; adapter: number; transport: number };
}

/** Time three variants (bare, adapter, transport) over `rounds`, rotating their order so none always gets the warmest connection. */
export async function timeVariants(
  variants: readonly [
    bare: () => Promise<unknown>,
    adapter: () => Promise<unknown>,
    transport: () => Promise<unknown>,
  ],
  count: number,
  rounds: number,
): Promise<VariantTimes> {
  const wall: number[][] = [[], [], []];
  const cpu: number[][] = [[], [], []];
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < variants.length; k++) {
      const index = (k + r) % variants.length;
      const time = await timeEach(variants[index] as () => Promise<unknown>, count);
      wall[index]?.push(time.wall);
      cpu[index]?.push(time.cpu);
    }
  }
  const [bareMs, adapterMs, transportMs] = wall.map(median) as [number, number, number];
  const [bare, adapter, transport] = cpu.map(median) as [number, number, number];
  return {
    bareMs: round(bareMs),
    adapterMs: round(adapterMs),
    ratio: round(adapterMs / bareMs),
    transportMs: round(transportMs),
    transportRatio: round(transportMs / bareMs),
    cpuMs: { bare: round(bare), adapter: round(adapter), transport: round(transport) },
  };
}

/** A PDF-headed file of `size` bytes written 1 MB at a time. */
export function writeDocument(path: string, size: number): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(1024 * 1024, 0x20);
  block.write("%PDF-1.4\n");
  for (let written = 0; written < size; written += block.length)
    writeSync(fd, block, 0, Math.min(block.length, size - written));
  closeSync(fd);
}

/** Peak RSS growth (MB) of one upload, sampled every 2 ms, with a GC every `gcEveryMs` (0: V8's own) when `--expose-gc`. */
export async function peakRssGrowth(
  upload: () => Promise<unknown>,
  gcEveryMs: number,
): Promise<{ peakRssGrowthMb: number; ms: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let lastGc = performance.now();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    if (gcEveryMs > 0 && performance.now() - lastGc >= gcEveryMs) {
      gc?.();
      lastGc = performance.now();
    }
  }, 2);
  const started = performance.now();
  await upload();
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss());
  return {
    peakRssGrowthMb: round((peak - baseline) / 1024 / 1024, 1),
    ms: Math.round(performance.now() - started),
  };
}

/** One report line of a timing row: bare, adapter, ratio, transport, ratio, goal, then the baseline ratio. */
export function timingLine(
  name: string,
  t: VariantTimes,
  goal: number,
  baseline: number | string,
  width = 9,
): string {
  const cells = [
    `${t.bareMs} ms`,
    `${t.adapterMs} ms`,
    `${t.ratio}×`,
    `${t.transportMs} ms`,
    `${t.transportRatio}×`,
    `${goal}×`,
  ];
  return `${name.padEnd(8)} ${cells.map((c) => c.padStart(width)).join(" ")}   ${baseline}`;
}
