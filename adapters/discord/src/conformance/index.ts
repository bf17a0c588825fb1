/** The conformance harness of the Discord adapter (needs the optional peer `@outbox/conformance`). */
export { createDiscordHarness, type DiscordHarnessOptions } from "./harness.js";
