import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { telegramCapabilities, telegramRenderer } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. A cut rendered the head its probe had just measured again (4.0 for marker runs, 4.9 for quoted lines; then 2.9 and 3.8), and a long paragraph was rendered whole
// only to size it before cutting (marker runs now 1.9). A cut whose best place to end was where
// its last probe ended rendered that head again for its chunk (emphasis storm 2.9, code-span
// storm 2.8, quoted lines 2.8; now 1.9 each).
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(telegramRenderer, telegramCapabilities, {
    "marker runs": 2.4,
    "quoted lines": 2.4,
    "emphasis storm": 2.4,
    "code-span storm": 2.4,
  });
});
