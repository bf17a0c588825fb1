import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { webCapabilities, webRenderer } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. Every tiny block was rendered and sanitized alone, then again in its chunk (3.0, now 1.0), and cut heads again after their probe (5.6 for marker runs, now 3.1).
// A cut whose best place to end was where its last probe ended rendered that head again for
// its chunk (emphasis storm 3.0, code-span storm 3.6, quoted lines 4.6; now 2.5, 2.8, 3.7).
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(webRenderer, webCapabilities, {
    "marker runs": 4.5,
    "many tiny blocks": 1.5,
    "quoted lines": 4.2,
    "emphasis storm": 2.8,
    "code-span storm": 3.2,
  });
});
