import { conformanceCases } from "./cases/registry.js";
import type { ConformanceCase, ConformanceHarness, ConformanceOptions } from "./types.js";

/** What `describeConformance` registers for one entry: run a case, skip it, or fail. */
export type PlannedTest =
  | { mode: "run"; name: string; testCase: ConformanceCase }
  | { mode: "skip"; name: string; reason: string }
  | { mode: "fail"; name: string; reason: string };

/**
 * The tests `describeConformance` registers for a harness and options: the selected cases
 * in order; a harness skip is a skip (with its reason), or a failure under `strict`; a
 * skip without a reason, a skip naming an unknown case id, a `formatGaps` or `combines`
 * entry without a reason, and an `only` entry matching nothing are always failures.
 */
export function planCases(harness: ConformanceHarness, options: ConformanceOptions = {}): PlannedTest[] {
  const skips = harness.skip ?? {};
  const unknown = Object.keys(skips)
    .filter((id) => !conformanceCases.some((c) => c.id === id))
    .map(
      (id): PlannedTest => ({
        mode: "fail",
        name: `harness.skip names an unknown case: ${id}`,
        reason: `harness.skip names "${id}", which is not a conformance case id`,
      }),
    );
  const gaps = [
    ...reasonless("formatGaps", harness.formatGaps, "say why the platform cannot show it"),
    ...reasonless("combines", harness.combines, "say how the platform groups it"),
  ];
  const unmatched = (options.only ?? [])
    .filter((entry) => !conformanceCases.some((c) => selected(c.id, [entry])))
    .map(
      (entry): PlannedTest => ({
        mode: "fail",
        name: `options.only names no case: ${entry}`,
        reason: `options.only names "${entry}", which matches no conformance case id or group`,
      }),
    );
  const planned = conformanceCases
    .filter((c) => selected(c.id, options.only))
    .map((testCase): PlannedTest => {
      const reason = skips[testCase.id];
      if (reason === undefined) return { mode: "run", name: testCase.id, testCase };
      if (reason.trim() === "")
        return {
          mode: "fail",
          name: testCase.id,
          reason: `harness.skip gives no reason for "${testCase.id}"`,
        };
      if (options.strict)
        return {
          mode: "fail",
          name: testCase.id,
          reason: `strict mode: "${testCase.id}" is skipped by the harness (${reason})`,
        };
      return { mode: "skip", name: `${testCase.id} (skipped: ${reason})`, reason };
    });
  return [...unknown, ...gaps, ...unmatched, ...planned];
}

// --- internal ---

/** A failing test per entry of a harness declaration (`formatGaps`, `combines`) that gives no reason. */
function reasonless(
  field: "formatGaps" | "combines",
  entries: Readonly<Record<string, string | undefined>> | undefined,
  fix: string,
): PlannedTest[] {
  return Object.entries(entries ?? {})
    .filter(([, reason]) => reason === undefined || reason.trim() === "")
    .map(([kind]) => ({
      mode: "fail",
      name: `harness.${field} gives no reason: ${kind}`,
      reason: `harness.${field} names "${kind}" without a reason; ${fix}`,
    }));
}

/** A case runs when `only` is absent, names it, or names a group prefix ending in `.`. */
function selected(id: string, only: string[] | undefined): boolean {
  return !only || only.some((entry) => entry === id || (entry.endsWith(".") && id.startsWith(entry)));
}
