/** The conformance harness of the Matrix adapter (needs the optional peer `@outbox/conformance`). */
export { createMatrixHarness, HARNESS_RATE_LIMIT, type MatrixHarnessOptions } from "./harness.js";
