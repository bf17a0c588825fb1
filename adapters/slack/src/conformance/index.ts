/** The conformance harness of the Slack adapter (needs the optional peer `@outbox/conformance`). */
export { createSlackHarness, HARNESS_CHANNEL, type SlackHarnessOptions } from "./harness.js";
