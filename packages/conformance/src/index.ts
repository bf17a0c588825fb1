/**
 * @outbox/conformance: the conformance suite every Outbox adapter runs, its fixtures and
 * fixture servers, and an in-memory reference adapter that passes it.
 *
 * @packageDocumentation
 */

export { type BrokenRenderer, brokenRenderers } from "./broken-renderers.js";
export { CaseUnobservableError } from "./case-unobservable.js";
export {
  CONFORMANCE_CASE_IDS,
  type ConformanceCaseId,
  conformanceCases,
  declaredFeatures,
} from "./cases/registry.js";
export { describeConformance, type RunCaseOptions, runCase } from "./describe-conformance.js";
export * from "./fixtures.js";
export * from "./growth.js";
export * from "./history.js";
export * from "./hostile-markdown.js";
export * from "./media-server.js";
export { type PlannedTest, planCases } from "./plan-cases.js";
export { referenceCapabilities } from "./reference/capabilities.js";
export * from "./reference/emulator.js";
export * from "./reference/harness.js";
export {
  type ParsedReferenceMarkup,
  parseReferenceMarkup,
  parseReferenceSpans,
  referenceRenderer,
} from "./reference/markup.js";
export { createReferenceTransport } from "./reference/transport.js";
export * from "./render-work.js";
export { itRendererTeeth, type PlainTextCaseId, type RendererTeethOptions } from "./renderer-teeth.js";
export type * from "./types.js";
export { type HarnessClock, harnessClock } from "./virtual-time.js";
