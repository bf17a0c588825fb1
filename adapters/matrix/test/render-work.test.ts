import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { matrixCapabilities, matrixRenderer } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. A cut rendered the head its probe had just measured again (5.9 for marker runs, 6.4 for quoted lines; now 4.9 and 5.3).
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(matrixRenderer, matrixCapabilities, {
    "marker runs": 5.3,
    "quoted lines": 5.8,
  });
});
