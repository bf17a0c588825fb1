import { describe, expect, it } from "vitest";
import { CONFORMANCE_CASE_IDS } from "../src/cases/registry.js";
import { planCases } from "../src/plan-cases.js";
import type { ConformanceHarness } from "../src/types.js";

const harness = (skip?: Record<string, string>): ConformanceHarness => ({
  name: "plan",
  setup: () => Promise.reject(new Error("never set up while planning")),
  ...(skip ? { skip } : {}),
});

describe("planCases", () => {
  it("runs every case, in order, by default", () => {
    const plan = planCases(harness());
    expect(plan.map((p) => p.mode)).toEqual(CONFORMANCE_CASE_IDS.map(() => "run"));
    expect(plan.map((p) => p.name)).toEqual([...CONFORMANCE_CASE_IDS]);
  });

  it("`only` selects exact ids and group prefixes ending in a dot", () => {
    const plan = planCases(harness(), { only: ["text.plain", "fault.rate-limit", "idempotency."] });
    expect(plan.map((p) => p.name)).toEqual([
      "text.plain",
      "fault.rate-limit",
      "idempotency.repeat",
      "idempotency.resume",
    ]);
  });

  it("a formatGaps entry without a reason is a failure naming it", () => {
    const gappy: ConformanceHarness = { ...harness(), formatGaps: { spoiler: " ", quote: "no quotes" } };
    expect(planCases(gappy, { only: ["text.plain"] }).map((p) => [p.mode, p.name])).toEqual([
      ["fail", "harness.formatGaps gives no reason: spoiler"],
      ["run", "text.plain"],
    ]);
  });

  it("a harness skip is a skip carrying its reason", () => {
    const plan = planCases(harness({ "voice.ogg": "emulator cannot decode Opus" }), { only: ["voice.ogg"] });
    expect(plan).toEqual([
      {
        mode: "skip",
        name: "voice.ogg (skipped: emulator cannot decode Opus)",
        reason: "emulator cannot decode Opus",
      },
    ]);
  });

  it("strict mode turns a harness skip into a failing test naming case and reason", () => {
    const plan = planCases(harness({ "voice.ogg": "emulator cannot decode Opus" }), {
      strict: true,
      only: ["voice.ogg"],
    });
    expect(plan).toEqual([
      {
        mode: "fail",
        name: "voice.ogg",
        reason: 'strict mode: "voice.ogg" is skipped by the harness (emulator cannot decode Opus)',
      },
    ]);
  });

  it("a skip without a reason always fails", () => {
    const plan = planCases(harness({ "voice.ogg": "  " }), { only: ["voice.ogg"] });
    expect(plan).toEqual([
      { mode: "fail", name: "voice.ogg", reason: 'harness.skip gives no reason for "voice.ogg"' },
    ]);
  });

  it("an `only` entry that matches no case fails", () => {
    const plan = planCases(harness(), { only: ["text.plain", "txt."] });
    expect(plan.map((p) => [p.mode, p.name])).toEqual([
      ["fail", "options.only names no case: txt."],
      ["run", "text.plain"],
    ]);
  });

  it("a skip naming an unknown case id always fails", () => {
    const plan = planCases(harness({ "text.plian": "typo" }), { only: ["text.plain"] });
    expect(plan.map((p) => p.mode)).toEqual(["fail", "run"]);
    expect(plan[0]?.name).toContain("text.plian");
  });
});
