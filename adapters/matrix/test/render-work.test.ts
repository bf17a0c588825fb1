import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { matrixCapabilities, matrixRenderer } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. A cut rendered the head its probe had just measured again (5.9 for marker runs, 6.4 for
// quoted lines; then 4.9 and 5.3), and a reply of one long block was rendered whole, then
// again as its block (now 3.9 and 4.3). A cut whose best place to end was where its last probe
// ended rendered that head again for its chunk (quoted lines 4.3, emphasis storm 4.6, code-span
// storm 4.3; now 3.4, 3.6, 3.4). Its second probe went one past where the first one's measure
// said the head fills the limit, so a head whose measure steps past it there took a third probe
// (marker runs 3.9, now 3.4).
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(matrixRenderer, matrixCapabilities, {
    "marker runs": 3.6,
    "quoted lines": 3.9,
    "emphasis storm": 4.1,
    "code-span storm": 3.9,
  });
});
