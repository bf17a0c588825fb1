/** The conformance harness of the WhatsApp adapter (needs the optional peer `@outbox/conformance`). */
export {
  createWhatsAppHarness,
  HARNESS_LIMITS,
  HARNESS_RECIPIENT,
  type WhatsAppHarnessOptions,
} from "./harness.js";
