import { describe, it } from "vitest";
import { conformanceCases } from "./cases/registry.js";
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
  const skips = harness.skip ?? {};
  describe(`conformance (${harness.name})`, () => {
    for (const unknown of Object.keys(skips).filter((id) => !conformanceCases.some((c) => c.id === id))) {
      it(`harness.skip names an unknown case: ${unknown}`, () => {
        throw new Error(`harness.skip names "${unknown}", which is not a conformance case id`);
      });
    }
    for (const testCase of conformanceCases.filter((c) => selected(c.id, options.only))) {
      const reason = skips[testCase.id];
      if (reason !== undefined) {
        if (options.strict) {
          it(testCase.id, () => {
            throw new Error(`strict mode: "${testCase.id}" is skipped by the harness (${reason})`);
          });
        } else it.skip(`${testCase.id} (skipped: ${reason})`, () => {});
        continue;
      }
      it(
        testCase.id,
        async (test) => {
          await runCase(testCase, harness, (why) => test.skip(`n/a: ${why}`));
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

// --- internal ---

/** A case runs when `only` is absent, names it, or names a group prefix ending in `.`. */
function selected(id: string, only: string[] | undefined): boolean {
  return !only || only.some((entry) => entry === id || (entry.endsWith(".") && id.startsWith(entry)));
}
