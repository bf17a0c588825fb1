/**
 * What a suite reports, and the two kinds of check kept apart: goals (reported met or not,
 * never failing the run) and regression gates (a gated ratio worse than the committed
 * baseline by more than the measured noise fails the run). A quick run checks only the gates
 * that do not depend on the machine's load: absolute ones (`max`) and exact counts (`exact`).
 */
import type { Stats } from "./stats.js";
import { ratioStats, round } from "./stats.js";

/** One figure. */
export interface Metric {
  /** `suite.name`, stable across runs (the baseline is keyed by it). */
  id: string;
  /** The figure (a median where measured repeatedly). */
  value: number;
  /** Unit: `×`, `ms`, `µs`, `MB`, `calls`, `count`… */
  unit: string;
  /** Relative spread of the measurement (0.05 = ±5%), when measured repeatedly. */
  spread?: number;
  /** A goal from the issues: met when `value` is on the right side of `target`. */
  goal?: { op: "<=" | ">="; target: number };
  /** Regression-gated: lower is better, compared with the committed baseline. */
  gate?: boolean;
  /** An absolute gate: any run (quick too) fails when the value exceeds it, whatever the baseline. */
  max?: number;
  /**
   * With `gate`: the value is an exact count, not a measurement (HTTP calls per reply), so it is
   * gated with no tolerance, and in quick runs too (the quick inputs send the same payloads).
   */
  exact?: boolean;
  /** What the figure is, for the report. */
  note?: string;
}

/** A suite: a named function returning its figures. */
export interface Suite {
  /** Short name (`parse`, `engine`, `telegram`, `load`…). */
  name: string;
  /** Measure; `quick` keeps it to seconds (CI runs it and checks its absolute gates and exact counts). */
  run(context: SuiteContext): Promise<Metric[]>;
}

/** What a suite is given. */
export interface SuiteContext {
  /** Seconds, not minutes: fewer rounds and smaller loads (the same payloads where counts are exact). */
  quick: boolean;
  /**
   * `--scale`: the at-scale scenarios that alone take longer than the full run's 15 minutes
   * (the queue's 10,000 replies to 500 chats); otherwise suites run a smaller version.
   */
  scale?: boolean;
  /** `--chaos`: only the fault scenarios (the queue's), which the full run includes too. */
  chaos?: boolean;
  /** Deliberate slowdown of named variants (the gate's own test injects one). */
  slowdown?: Record<string, number>;
}

/** A ratio metric from paired per-round measurements (`subject[i] / reference[i]`). */
export function ratioMetric(
  id: string,
  subject: readonly number[],
  reference: readonly number[],
  extra: Omit<Metric, "id" | "value" | "unit" | "spread"> = {},
): Metric {
  const ratio: Stats = ratioStats(subject, reference);
  return { id, value: round(ratio.median), unit: "×", spread: round(ratio.spread), ...extra };
}

/** Whether a metric meets its goal (`undefined` without a goal). */
export function goalMet(metric: Metric): boolean | undefined {
  if (!metric.goal) return undefined;
  return metric.goal.op === "<=" ? metric.value <= metric.goal.target : metric.value >= metric.goal.target;
}

/** The smallest tolerance of a gate: a ratio 25% worse than the baseline fails even when quiet. */
export const MIN_TOLERANCE = 0.25;

/** The outcome of one gate. */
export interface GateResult {
  id: string;
  value: number;
  baseline: number;
  /** Allowed relative worsening: the larger of 25% and twice the combined spread. */
  tolerance: number;
  passed: boolean;
}

/**
 * Compare every gated metric with its baseline; metrics without a baseline pass (reported as
 * new). `quick`: only the absolute gates and the exact counts, since a quick run's few rounds on
 * a loaded machine say nothing about a ratio.
 */
export function checkGates(
  latest: readonly Metric[],
  baseline: readonly Metric[],
  { quick = false }: { quick?: boolean } = {},
): GateResult[] {
  const before = new Map(baseline.map((metric) => [metric.id, metric]));
  const results: GateResult[] = [];
  for (const metric of latest) {
    if (metric.max !== undefined)
      results.push({
        id: metric.id,
        value: metric.value,
        baseline: metric.max,
        tolerance: 0,
        passed: metric.value <= metric.max,
      });
    const old = metric.gate && (metric.exact || !quick) ? before.get(metric.id) : undefined;
    if (old === undefined) continue;
    const noise = Math.hypot(metric.spread ?? 0, old.spread ?? 0);
    const tolerance = metric.exact ? 0 : round(Math.max(MIN_TOLERANCE, 2 * noise));
    results.push({
      id: metric.id,
      value: metric.value,
      baseline: old.value,
      tolerance,
      passed: metric.value <= old.value * (1 + tolerance) + 1e-9,
    });
  }
  return results;
}
