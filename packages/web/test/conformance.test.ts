import { describeConformance } from "@outbox/conformance";
import { afterAll, describe } from "vitest";
import { createWebHarness } from "../src/conformance/index.js";
import { browserLabel, noBrowser } from "./support/browser.js";

/** The suite in strict mode, every observation read from the inbox page in Chromium. */
describe.skipIf(noBrowser)(`web conformance ${browserLabel}`, () => {
  const harness = createWebHarness();
  afterAll(() => harness.close(), 60_000);
  describeConformance(harness, { strict: true });
});
