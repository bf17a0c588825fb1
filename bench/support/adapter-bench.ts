/**
 * What the adapter suites (telegram, slack, discord) share: a clock that skips pacing waits,
 * the adapter against its bare client library in interleaved rounds (client CPU gated and
 * goal-checked, wall time reported), and HTTP calls per payload counted by the emulator.
 */
import type { Clock } from "@outbox/core";
import type { EmulatorProcess } from "./emulator-child.js";
import { measure, type Variant } from "./measure.js";
import { type Metric, ratioMetric, type SuiteContext } from "./metrics.js";
import { round, stats } from "./stats.js";

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

/** One payload sent by the bare client and by the adapter. */
export interface Pair {
  /** Metric name (`text200`, `file`…). */
  name: string;
  /** Goal for client CPU, adapter over bare. */
  goal: number;
  /** Operations per round relative to the others (cheaper pairs run more). */
  weight: number;
  bare: Variant["run"];
  adapter: Variant["run"];
}

/**
 * Measure each pair (warm-up until settled, interleaved rounds) and report
 * `<suite>.<pair>.cpu` (goal, gated) and `<suite>.<pair>.wall`; `bareName` names the
 * reference in the notes (`bare grammY`).
 */
export async function adapterOverBare(
  suite: string,
  bareName: string,
  pairs: readonly Pair[],
  { quick, slowdown }: SuiteContext,
): Promise<Metric[]> {
  const metrics: Metric[] = [];
  for (const pair of pairs) {
    const injected = slowdown?.[`${suite}.${pair.name}`];
    const measured = await measure(
      [
        { name: "bare", run: pair.bare },
        { name: "adapter", run: pair.adapter },
      ],
      {
        rounds: quick ? 3 : 9,
        perRound: (quick ? 2 : 10) * pair.weight,
        warmup: { minBatches: quick ? 1 : 5, maxBatches: quick ? 1 : 40 },
        ...(injected ? { slowdown: { adapter: injected } } : {}),
      },
    );
    const { cpuMs, wallMs } = measured;
    const ms = (values: number[] | undefined) => round(stats(values ?? []).median);
    metrics.push(
      ratioMetric(`${suite}.${pair.name}.cpu`, cpuMs.adapter ?? [], cpuMs.bare ?? [], {
        goal: { op: "<=", target: pair.goal },
        gate: true,
        note: `client CPU per reply, adapter over ${bareName} (bare ${ms(cpuMs.bare)} ms, adapter ${ms(cpuMs.adapter)} ms); warm-up ${measured.warmup.operations} ops, cold ${measured.warmup.coldOverSettled.toFixed(2)}×`,
      }),
      ratioMetric(`${suite}.${pair.name}.wall`, wallMs.adapter ?? [], wallMs.bare ?? [], {
        note: `wall time per reply, adapter over ${bareName} (bare ${ms(wallMs.bare)} ms, adapter ${ms(wallMs.adapter)} ms; includes the emulator's work)`,
      }),
    );
  }
  return metrics;
}

/** A send that must deliver (a fast failure is no result). */
export type Send = () => Promise<{ ok: boolean; failures: ReadonlyArray<{ error: { message: string } }> }>;

/** Fail on a receipt that is not fully delivered. */
export async function delivered(send: ReturnType<Send>): Promise<void> {
  const receipt = await send;
  if (!receipt.ok) throw new Error(`adapter send failed: ${receipt.failures[0]?.error.message}`);
}

/**
 * HTTP requests the emulator received for one adapter send of each payload, as exact-count
 * gated `<suite>.httpCalls.<name>` metrics (checked in quick runs too); `bare` sends the same payload with the bare client,
 * whose count goes into the note.
 */
export async function httpCalls(
  suite: string,
  emulator: EmulatorProcess,
  payloads: Record<string, { adapter: Send; bare?: () => Promise<unknown> }>,
): Promise<Metric[]> {
  const count = async (send: () => Promise<unknown>) => {
    const before = (await emulator.stats()).requests;
    await send();
    return (await emulator.stats()).requests - before;
  };
  const metrics: Metric[] = [];
  for (const [name, payload] of Object.entries(payloads)) {
    const calls = await count(() => delivered(payload.adapter()));
    const bare = payload.bare ? `; bare client ${await count(payload.bare)}` : "";
    metrics.push({
      id: `${suite}.httpCalls.${name}`,
      value: calls,
      unit: "calls",
      gate: true,
      exact: true,
      note: `HTTP calls for one ${name} reply${bare}`,
    });
  }
  return metrics;
}

/** One payload sent by both sides: the adapter's send (a receipt) and the bare client's. */
export interface Payload {
  adapter: Send;
  bare: () => Promise<unknown>;
}

/**
 * What every adapter suite measures: the formatted text (goal ≤ 1.10×, weight 4) and the text
 * with one media item (`media.name`: `file`, `image`; goal ≤ 1.05×, weight 1) through
 * {@link adapterOverBare}, then the HTTP calls of each.
 */
export async function textAndMedia(
  suite: string,
  bareName: string,
  emulator: EmulatorProcess,
  text: Payload,
  media: Payload & { name: string },
  context: SuiteContext,
): Promise<Metric[]> {
  const metrics = await adapterOverBare(
    suite,
    bareName,
    [
      { name: "text", goal: 1.1, weight: 4, bare: text.bare, adapter: () => delivered(text.adapter()) },
      {
        name: media.name,
        goal: 1.05,
        weight: 1,
        bare: media.bare,
        adapter: () => delivered(media.adapter()),
      },
    ],
    context,
  );
  metrics.push(...(await httpCalls(suite, emulator, { text, [media.name]: media })));
  return metrics;
}
