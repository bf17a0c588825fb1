/** The conformance harness of the Teams adapter (needs the optional peer `@outbox/conformance`). */
export { createTeamsHarness, HARNESS_CONVERSATION, type TeamsHarnessOptions } from "./harness.js";
