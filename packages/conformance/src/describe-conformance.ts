import { describe, it } from "vitest";
import { planCases } from "./plan-cases.js";
import type {
  ConformanceCase,
  ConformanceHarness,
  ConformanceInstance,
  ConformanceOptions,
} from "./types.js";

/** Per-case time limit: cases are small; the longest waits are a few hundred milliseconds of 429s. */
const CASE_TIMEOUT_MS = 30_000;

/**
 * Register the conformance suite for an adapter as vitest `describe`/`it` blocks. Call it
 * at module top level of a test file. Each case gets a fresh `harness.setup()`; cases the
 * adapter's capabilities make inapplicable are reported as skipped with the reason
 * (`n/a: …`); cases named in `harness.skip` are skipped with their reason, or fail
 * under `strict`.
 *
 * @example
 * ```ts
 * import { describeConformance } from "@outbox/conformance";
 * import { createMyHarness } from "../src/testing.js";
 * describeConformance(createMyHarness(), { strict: true });
 * ```
 */
export function describeConformance(harness: ConformanceHarness, options: ConformanceOptions = {}): void {
  describe(`conformance (${harness.name})`, () => {
    for (const planned of planCases(harness, options)) {
      if (planned.mode === "skip") it.skip(planned.name, () => {});
      else if (planned.mode === "fail")
        it(planned.name, () => {
          throw new Error(planned.reason);
        });
      else
        it(
          planned.name,
          async (test) => {
            await runCase(planned.testCase, harness, (why) => test.skip(`n/a: ${why}`));
          },
          CASE_TIMEOUT_MS,
        );
    }
  });
}

/**
 * Run one case against a fresh harness instance, outside vitest's registration (used by
 * `describeConformance`, and by tests that check a suite FAILS on a broken adapter).
 * Resolves `"n/a: <reason>"` when the adapter's capabilities make the case inapplicable,
 * `"passed"` when it passes; rejects with the assertion error when it fails.
 */
export async function runCase(
  testCase: ConformanceCase,
  harness: ConformanceHarness,
  onInapplicable?: (reason: string) => void,
): Promise<"passed" | `n/a: ${string}`> {
  const instance: ConformanceInstance = await harness.setup();
  try {
    const applies = testCase.applies(instance.adapter.capabilities);
    if (applies !== true) {
      onInapplicable?.(applies);
      return `n/a: ${applies}`;
    }
    await testCase.run({
      ...instance,
      capabilities: instance.adapter.capabilities,
      harnessSkips: harness.skip ?? {},
    });
    return "passed";
  } finally {
    await instance.teardown();
  }
}
