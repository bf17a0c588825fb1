import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { discordCapabilities, discordRenderer } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. Chunks were rendered again after their blocks (2.3 for many tiny blocks, now 0.33: separators are not rendered) and cut heads again after their probe (5.0 for marker runs, then 3.0),
// and a long paragraph was rendered whole only to size it before cutting (now 2.1). A cut's
// second probe went one past where the first one's measure said the head fills the limit, so
// a head whose measure steps past it there took a third probe (link storm 3.3, now 2.3).
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(discordRenderer, discordCapabilities, {
    "marker runs": 2.6,
    "many tiny blocks": 1,
    "link storm": 2.8,
  });
});
