/** The conformance harness of the Google Chat adapter (needs the optional peer `@outbox/conformance`). */
export { createGoogleChatHarness, type GoogleChatHarnessOptions, HARNESS_SPACE } from "./harness.js";
