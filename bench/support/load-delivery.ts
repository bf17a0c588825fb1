/**
 * What every load scenario sends and judges: a marked reply per message, the count of each
 * marker among what arrived (lost and duplicated replies), and the four delivery figures
 * (lost, duplicates, 429s, wall over the floor).
 */
import type { Metric } from "./metrics.js";
import { round } from "./stats.js";

/** Reply `i` of a load: formatted text that starts with its marker `Reply i:`. */
export const loadReply = (i: number) =>
  `Reply **${i}**: here is _some_ text with \`code\` and a [link](https://example.com/${i}), as an assistant writes it.`;

/**
 * Lost and duplicated markers: `expected` against the markers `markersOf` finds in each
 * message that arrived.
 */
export function tally(
  arrived: string[],
  expected: string[],
  markersOf: (text: string) => string[],
): { lost: number; duplicates: number } {
  const counts = new Map<string, number>();
  for (const text of arrived)
    for (const marker of markersOf(text)) counts.set(marker, (counts.get(marker) ?? 0) + 1);
  return {
    lost: expected.filter((marker) => !counts.has(marker)).length,
    duplicates: [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0),
  };
}

/** One scenario's outcome and how to describe it. */
export interface LoadOutcome {
  /** Figure id prefix (`load.slack`). */
  id: string;
  /** What was sent where (`1000 replies to 50 Slack channels`). */
  where: string;
  /** Replies that never arrived. */
  lost: number;
  /** Messages that arrived more than once. */
  duplicates: number;
  /** Receipts that were not ok. */
  failed: number;
  /** 429s the emulator answered under its own limits. */
  refused429: number;
  /** What answered them, for the note. */
  refusedBy: string;
  /** Wall time of the whole scenario, in ms. */
  wallMs: number;
  /** Shortest time the limits allow, in ms (a floor under 1 s counts as 1 s). */
  floorMs: number;
  /** Added to the wall-over-floor note (`(the pair window scaled 6 times)`). */
  floorNote?: string;
  /** A quick run: the wall ratio is not gated. */
  quick: boolean;
}

/**
 * Lost, duplicates and 429s under the platform's limits (goals and absolute gates 0, quick runs
 * included: a count of them is a broken promise on any machine) and wall over the floor (goal
 * 1.05×, gated in full runs).
 */
export function deliveryMetrics(outcome: LoadOutcome): Metric[] {
  const { id, quick } = outcome;
  const zero = { goal: { op: "<=", target: 0 }, max: 0 } as const;
  const wall = `wall ${round(outcome.wallMs / 1000, 2)} s over the floor of ${round(outcome.floorMs / 1000, 2)} s`;
  return [
    {
      id: `${id}.lost`,
      value: outcome.lost,
      unit: "messages",
      ...zero,
      note: `${outcome.where}: never arrived (${outcome.failed} failed receipts)`,
    },
    {
      id: `${id}.duplicates`,
      value: outcome.duplicates,
      unit: "messages",
      ...zero,
      note: "arrived more than once",
    },
    {
      id: `${id}.refused429`,
      value: outcome.refused429,
      unit: "429s",
      ...zero,
      note: `answered by ${outcome.refusedBy}`,
    },
    {
      id: `${id}.wallOverFloor`,
      value: round(outcome.wallMs / Math.max(outcome.floorMs, 1000)),
      unit: "×",
      goal: { op: "<=", target: 1.05 },
      gate: !quick,
      note: outcome.floorNote === undefined ? wall : `${wall} ${outcome.floorNote}`,
    },
  ];
}
