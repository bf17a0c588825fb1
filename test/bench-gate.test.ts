import { parseReplyMarkdown } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { measure } from "../bench/support/measure.js";
import { checkGates, type Metric, ratioMetric } from "../bench/support/metrics.js";

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

  it("a deliberate 2× slowdown injected in a tiny bench makes its gate fail", {
    timeout: 60_000,
  }, async () => {
    const text = "Some **bold** text, a [link](https://example.com) and `code`.";
    // The same work on both sides, interleaved: the ratio is 1 unless a slowdown is injected.
    const tiny = async (slowdown?: Record<string, number>) => {
      const measured = await measure(
        [
          { name: "reference", run: () => parseReplyMarkdown(text) },
          { name: "subject", run: () => parseReplyMarkdown(text) },
        ],
        {
          rounds: 9,
          perRound: 300,
          warmup: { minBatches: 3, maxBatches: 20 },
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
    const [gate] = checkGates(await tiny({ subject: 2 }), baseline);
    expect(gate?.value).toBeGreaterThan(1.5 * (gate?.baseline ?? 0));
    expect(gate?.passed, JSON.stringify(gate)).toBe(false);
  });
});
