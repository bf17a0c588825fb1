/**
 * Cost of streaming a reply (`deliverAgentRun`) as it grows: client CPU to deliver 1k, 4k
 * and 16k text deltas (six characters each, the Markdown of `markdownReply`) in `preview`
 * mode (a live preview edited as fast as the platform allows: edits every 0 ms here, so
 * every delta may cause one, the worst case of any throttle interval) and in `blocks` mode,
 * on an in-memory transport with Telegram's 4 096-character limit. Reported per mode: the
 * CPU at each size and the growth exponent log(t16k / t4k) / log 4 (1 = linear, 2 =
 * quadratic). Goal: exponent ≤ 1.1 (docs/streaming.md: "a long reply costs linear work").
 * The exponents are not gated (on the shared 2-core machine the exponent of a run of a
 * few hundred ms moves by ±0.1 with the load); the preview's per-round ratio of 16k over
 * 4k deltas is (about 2.5: a head already shown is not rendered again, so both sizes pay
 * for the edits they send; 4 if linear, 16 if the work turned quadratic).
 */
import { type AgentEvent, deliverAgentRun } from "@outbox/core";
import { memoryAdapter } from "../support/memory-adapter.js";
import { type Metric, ratioMetric, type Suite } from "../support/metrics.js";
import { round, stats } from "../support/stats.js";
import { markdownReply } from "./texts.js";

const DELTA = 6;

function deltasOf(count: number): string[] {
  const text = markdownReply(count * DELTA).markdown.slice(0, count * DELTA);
  return Array.from({ length: count }, (_, i) => text.slice(i * DELTA, (i + 1) * DELTA));
}

async function* events(deltas: readonly string[]): AsyncGenerator<AgentEvent> {
  for (const text of deltas) yield { type: "text", text };
  yield { type: "done" };
}

/** CPU ms of one run of `deltas` in `mode`, and the edits the preview made. */
async function runOnce(
  mode: "preview" | "blocks",
  deltas: readonly string[],
): Promise<{ ms: number; edits: number }> {
  let edits = 0;
  const adapter = memoryAdapter({ edits: { minIntervalMs: 0 } }, () => {
    edits += 1;
  });
  const started = process.cpuUsage();
  const receipt = await deliverAgentRun(events(deltas), adapter, { to: "bench" }, { mode, idleMs: 0 })
    .receipt;
  const used = process.cpuUsage(started);
  if (!receipt.ok) throw new Error(`stream bench: the ${mode} run failed`);
  return { ms: (used.user + used.system) / 1000, edits };
}

/** The stream suite. */
export const streamSuite: Suite = {
  name: "stream",
  async run({ quick }) {
    const [first, small, large] = quick ? [250, 1000, 4000] : [1000, 4000, 16000];
    const sizes = [first, small, large];
    const rounds = quick ? 1 : 5;
    const metrics: Metric[] = [];
    for (const mode of ["preview", "blocks"] as const) {
      const cpu = new Map<number, number[]>(sizes.map((size) => [size, []]));
      let edits = 0;
      await runOnce(mode, deltasOf(first)); // warm-up
      for (let r = 0; r < rounds; r++) {
        for (const size of sizes) {
          const run = await runOnce(mode, deltasOf(size));
          cpu.get(size)?.push(run.ms);
          if (size === large) edits = run.edits;
        }
      }
      const median = (size: number) => stats(cpu.get(size) ?? []).median;
      for (const size of sizes) {
        metrics.push({
          id: `stream.${mode}.cpu${size / 1000}k`,
          value: round(median(size), 1),
          unit: "ms",
          spread: round(stats(cpu.get(size) ?? []).spread),
          note: `client CPU for ${size} deltas of ${DELTA} characters${size === large && mode === "preview" ? ` (${edits} edits)` : ""}`,
        });
      }
      const exponent = (small: number, large: number): number =>
        round(Math.log(median(large) / median(small)) / Math.log(large / small), 2);
      metrics.push(
        {
          id: `stream.${mode}.exponentBelow`,
          value: exponent(first, small),
          unit: "",
          note: `growth exponent from ${first} to ${small} deltas${mode === "preview" ? " (while the reply fits the limit every edit shows all of it: that growth is the edits' own)" : ""}`,
        },
        {
          id: `stream.${mode}.exponent`,
          value: exponent(small, large),
          unit: "",
          goal: { op: "<=", target: 1.1 },
          note: `growth exponent of client CPU from ${small} to ${large} deltas (1 = linear)`,
        },
      );
      if (mode === "preview") {
        metrics.push(
          ratioMetric(`stream.preview.growth`, cpu.get(large) ?? [], cpu.get(small) ?? [], {
            gate: true,
            note: `CPU of ${large} deltas over ${small} in the same round: about 2.5 (a shown head is not rendered again), 4 if linear, 16 if quadratic`,
          }),
        );
      }
    }
    return metrics;
  },
};
