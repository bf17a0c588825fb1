import { itRendersBoundedly } from "@outbox/conformance";
import { describe } from "vitest";
import { googleChatRenderer, googlechatCapabilities } from "../src/index.js";

// Counted, not timed: units of markup rendered while planning, per unit of the reply rendered
// once. Core's marker renderer, as Slack's.
describe("planning hostile text renders each piece a bounded number of times", () => {
  itRendersBoundedly(googleChatRenderer, googlechatCapabilities, {
    "marker runs": 6,
    "quoted lines": 6.5,
  });
});
