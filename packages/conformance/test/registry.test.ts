import { describe, expect, it } from "vitest";
import { CONFORMANCE_CASE_IDS, conformanceCases, declaredFeatures } from "../src/cases/registry.js";
import { referenceCapabilities } from "../src/reference/capabilities.js";

describe("case registry", () => {
  it("CONFORMANCE_CASE_IDS lists every case id once, in run order", () => {
    expect(conformanceCases.map((c) => c.id)).toEqual([...CONFORMANCE_CASE_IDS]);
    expect(new Set(CONFORMANCE_CASE_IDS).size).toBe(CONFORMANCE_CASE_IDS.length);
  });

  it("every case says what it checks and what gates it", () => {
    for (const c of conformanceCases) {
      expect(c.id).toMatch(/^[a-z]+(\.[a-z0-9-]+)+$/);
      expect(c.checks.length, c.id).toBeGreaterThan(20);
      expect(c.gate, c.id).toMatch(/\S/);
    }
  });

  it("every feature a case exercises is one declaredFeatures can name", () => {
    const known = new Set(
      declaredFeatures({
        ...referenceCapabilities,
        media: { ...referenceCapabilities.media, byUrl: { default: 1 } },
      }),
    );
    for (const c of conformanceCases)
      for (const feature of c.exercises) expect(known, c.id).toContain(feature);
  });

  it("the reference capabilities declare everything, so every feature has a case", () => {
    const features = declaredFeatures(referenceCapabilities);
    expect(features).toHaveLength(14);
    for (const feature of features)
      expect(conformanceCases.some((c) => c.exercises.includes(feature))).toBe(true);
  });
});
