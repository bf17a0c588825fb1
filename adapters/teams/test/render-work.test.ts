import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { teamsCapabilities, teamsRenderer } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. Core's HTML renderer, as Matrix's: quoted lines measured 6.15 (2026-11-28).
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(teamsRenderer, teamsCapabilities, {
    "marker runs": 6,
    "quoted lines": 6.5,
  });
});
