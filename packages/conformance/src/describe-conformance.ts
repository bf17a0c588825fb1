import { createManualClock, systemClock } from "@outbox/core";
import { describe, it } from "vitest";
import { CaseUnobservableError } from "./case-unobservable.js";
import { planCases } from "./plan-cases.js";
import type {
  ConformanceCase,
  ConformanceHarness,
  ConformanceInstance,
  ConformanceOptions,
} from "./types.js";
import { inVirtualTime } from "./virtual-time.js";

/** Per-case time limit: cases are small; the longest waits are a few hundred milliseconds of 429s. */
const CASE_TIMEOUT_MS = 30_000;

/**
 * Register the conformance suite for an adapter as vitest `describe`/`it` blocks. Call it
 * at module top level of a test file. Each case gets a fresh `harness.setup()`; cases the
 * adapter's capabilities make inapplicable are reported as skipped with the reason
 * (`n/a: …`); cases named in `harness.skip`, and cases that need an observation the harness
 * cannot make (`skipped: …`), are skipped with their reason, or fail under `strict`.
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
            await runCase(planned.testCase, harness, {
              strict: options.strict ?? false,
              onSkip: (label) => test.skip(label),
            });
          },
          CASE_TIMEOUT_MS,
        );
    }
  });
}

/**
 * The failure with what the case assumes after its own message: the reply it sent, what it
 * expects, and what a platform that differs declares, so a failure on an honest platform
 * says what to declare instead of only which number differed.
 */
function withAssumptions(error: unknown, testCase: ConformanceCase): unknown {
  if (!(error instanceof Error)) return error;
  error.message = `${error.message}\n\n${testCase.id} sent ${testCase.sends}.\nIt expects: ${testCase.checks}\nA platform that differs: ${testCase.differs ?? "nothing to declare; every adapter must pass this case"}.`;
  return error;
}

/** Options of {@link runCase}. */
export type RunCaseOptions = {
  /** Strict mode: an observation the harness cannot make (see {@link CaseUnobservableError}) fails the case. */
  strict?: boolean;
  /** Called with the label (`n/a: …` or `skipped: …`) when the case does not run to a verdict. */
  onSkip?: (label: string) => void;
};

/**
 * Run one case against a fresh harness instance, outside vitest's registration (used by
 * `describeConformance`, and by tests that check a suite FAILS on a broken adapter). Under
 * `harness.virtualTime` the instances are built on a fresh manual clock and the case runs in
 * virtual time (see {@link inVirtualTime}).
 * Resolves `"n/a: <reason>"` when the adapter's capabilities make the case inapplicable,
 * `"skipped: <reason>"` when (outside strict mode) the harness cannot observe what the case
 * judges, `"passed"` when it passes; rejects with the assertion error when it fails.
 */
export async function runCase(
  testCase: ConformanceCase,
  harness: ConformanceHarness,
  options: RunCaseOptions = {},
): Promise<"passed" | `n/a: ${string}` | `skipped: ${string}`> {
  // From the wall clock's time: emulators that judge credentials by epoch times (JWT `iat`) accept them.
  const virtual = harness.virtualTime === true ? createManualClock(Date.now()) : undefined;
  const clocked = virtual === undefined ? {} : { clock: virtual };
  const instance: ConformanceInstance = await harness.setup(virtual === undefined ? undefined : clocked);
  const others: ConformanceInstance[] = [];
  try {
    const applies = testCase.applies(instance.adapter.capabilities);
    if (applies !== true) {
      options.onSkip?.(`n/a: ${applies}`);
      return `n/a: ${applies}`;
    }
    const run = (): Promise<void> =>
      testCase.run({
        ...instance,
        capabilities: instance.adapter.capabilities,
        harnessSkips: harness.skip ?? {},
        formatGaps: harness.formatGaps ?? {},
        combines: harness.combines ?? {},
        strict: options.strict ?? false,
        clock: virtual ?? systemClock,
        setupWith: async (setup) => {
          const other = await harness.setup({ ...setup, ...clocked });
          others.push(other);
          return other;
        },
      });
    await (virtual === undefined ? run() : inVirtualTime(virtual, run));
    return "passed";
  } catch (error) {
    if (!(error instanceof CaseUnobservableError)) throw withAssumptions(error, testCase);
    options.onSkip?.(`skipped: ${error.message}`);
    return `skipped: ${error.message}`;
  } finally {
    for (const other of others) await other.teardown();
    await instance.teardown();
  }
}
