import { parseReplyMarkdown } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { measure } from "../bench/support/measure.js";
import { checkGates, type Metric, ratioMetric } from "../bench/support/metrics.js";
import { missingGates } from "../bench/support/required-gates.js";

const gated = (value: number, spread = 0): Metric => ({
  id: "x.ratio",
  value,
  unit: "×",
  spread,
  gate: true,
});

describe("bench regression gates", () => {
  it("fail a ratio worse than the baseline by more than 25% or the measured noise", () => {
    expect(checkGates([gated(1.2)], [gated(1)])[0]?.passed).toBe(true);
    expect(checkGates([gated(1.3)], [gated(1)])[0]?.passed).toBe(false);
    // Noisy measurements widen the tolerance: ±30% on each side allows +85%.
    expect(checkGates([gated(1.8, 0.3)], [gated(1, 0.3)])[0]).toMatchObject({
      passed: true,
      tolerance: 0.849,
    });
    // Ungated figures and figures without a baseline are not compared.
    expect(
      checkGates(
        [
          { ...gated(9), gate: false },
          { ...gated(9), id: "new" },
        ],
        [gated(1)],
      ),
    ).toEqual([]);
  });

  it("fail an absolute gate (`max`) above it, with or without a baseline", () => {
    const count = (value: number): Metric => ({ id: "x.duplicates", value, unit: "count", max: 0 });
    expect(checkGates([count(0)], [])[0]?.passed).toBe(true);
    expect(checkGates([count(1)], [])[0]).toMatchObject({ passed: false, baseline: 0 });
  });

  it("a quick run checks the absolute gates and the exact counts, never a noisy ratio", () => {
    const calls = (value: number): Metric => ({
      id: "x.httpCalls.text",
      value,
      unit: "calls",
      gate: true,
      exact: true,
    });
    const lost = (value: number): Metric => ({ id: "x.lost", value, unit: "count", max: 0 });
    const baseline = [gated(1), calls(3)];
    const quick = (latest: Metric[]) => checkGates(latest, baseline, { quick: true });
    // A ratio three times worse is not compared in a quick run (a full run fails it).
    expect(quick([gated(3)])).toEqual([]);
    expect(checkGates([gated(3)], baseline)[0]?.passed).toBe(false);
    // One HTTP call more fails, although 4 is within 25% of 3: a count has no noise.
    expect(quick([calls(3)])[0]?.passed).toBe(true);
    expect(quick([calls(4)])[0]).toMatchObject({ passed: false, baseline: 3, tolerance: 0 });
    expect(checkGates([calls(4)], baseline)[0]?.passed).toBe(false);
    // An absolute gate fails a quick run too.
    expect(quick([lost(0)])[0]?.passed).toBe(true);
    expect(quick([lost(1)])[0]?.passed).toBe(false);
  });

  it("a run that stops reporting a gate CI relies on, or reports it ungated, is told so", () => {
    const required = new Map([
      ["load.slack.lost", "max"],
      ["slack.httpCalls.file", "exact"],
    ] as const);
    const lost: Metric = { id: "load.slack.lost", value: 0, unit: "count", max: 0 };
    const calls: Metric = { id: "slack.httpCalls.file", value: 3, unit: "calls", gate: true, exact: true };
    const ran = new Set(["load", "slack"]);
    expect(missingGates([lost, calls], ran, required)).toEqual([]);
    // Dropped (renamed, or its payload removed): checkGates alone sees nothing to fail.
    expect(checkGates([calls], [lost, calls], { quick: true }).every((gate) => gate.passed)).toBe(true);
    expect(missingGates([calls], ran, required)).toEqual(["load.slack.lost: not reported"]);
    // Still reported, but no longer gated.
    expect(
      missingGates(
        [
          { ...lost, max: undefined },
          { ...calls, exact: undefined },
        ],
        ran,
        required,
      ),
    ).toEqual([
      "load.slack.lost: reported without its absolute gate (max)",
      "slack.httpCalls.file: reported without its exact gate",
    ]);
    // A run of some suites is held only to theirs.
    expect(missingGates([calls], new Set(["slack"]), required)).toEqual([]);
  });

  it("a deliberate 2× slowdown injected in a tiny bench makes its gate fail", async () => {
    const text = "Some **bold** text, a [link](https://example.com) and `code`.";
    // The measured time is counted work, not the machine's clock: each operation parses the
    // text and costs 0.9–1.1 units (a fixed sequence, so the rounds are not all equal). The
    // real measure → ratioMetric → checkGates path then sees exactly what a slowdown does,
    // however loaded the machine is.
    const tiny = async (slowdown?: Record<string, number>) => {
      let work = 0;
      let calls = 0;
      const operation = () => {
        parseReplyMarkdown(text);
        calls += 1;
        work += 0.9 + ((calls * 7) % 11) / 50;
      };
      const measured = await measure(
        [
          { name: "reference", run: operation },
          { name: "subject", run: operation },
        ],
        {
          rounds: 9,
          perRound: 30,
          warmup: { minBatches: 3, maxBatches: 5 },
          clock: { cpuMs: () => work, wallMs: () => work },
          ...(slowdown ? { slowdown } : {}),
        },
      );
      return [
        ratioMetric("tiny.ratio", measured.cpuMs.subject ?? [], measured.cpuMs.reference ?? [], {
          gate: true,
        }),
      ];
    };
    const baseline = await tiny();
    expect(baseline[0]?.value).toBeCloseTo(1, 1);
    // Without the slowdown the same bench passes its gate…
    expect(checkGates(await tiny(), baseline)[0]?.passed).toBe(true);
    // …and with the subject running twice per operation, it fails it.
    const [gate] = checkGates(await tiny({ subject: 2 }), baseline);
    expect(gate?.value).toBeCloseTo(2, 1);
    expect(gate?.passed, JSON.stringify(gate)).toBe(false);
  });
});
