/** The conformance harness of the Telegram adapter, for `describeConformance` from `@outbox/conformance` (an optional peer). */
export { createTelegramHarness, HARNESS_CHAT, type TelegramHarnessOptions } from "./harness.js";
