/**
 * @outbox/core: the reply protocol parser and payload model, the safe media loader,
 * the delivery plan and engine, errors, pacing and once-only delivery: what an integrator
 * and an adapter use. The emulator kit is `@outbox/core/testing`; engine pieces only
 * Outbox's own packages share are `@outbox/core/internal`.
 *
 * @packageDocumentation
 */

export type * from "./adapter/descriptor.js";
export { type AdapterEnvReading, adapterSecrets, readAdapterEnv } from "./adapter/descriptor-env.js";
export { FAULT_KINDS, UnknownFaultError } from "./adapter/fault-queue.js";
export {
  AdapterDescriptorError,
  adapterSpecifiers,
  descriptorProblem,
  type FindAdapterDescriptorsOptions,
  findAdapterDescriptors,
  loadAdapterDescriptor,
} from "./adapter/find-descriptors.js";
// Also the web inbox's reading of its own pages at run time, so not only the kit's.
export { type HtmlNode, type HtmlReading, type ReadHtml, readHtml } from "./adapter/html-reading.js";
export {
  type BearerApi,
  type BearerCall,
  bearerCall,
  jsonObject,
  oauthToken,
  requestText,
  type TextAnswer,
  type TextRequest,
  type TokenRequest,
} from "./adapter/http-answers.js";
export {
  type FailedJsonAnswer,
  type FailedJsonCall,
  type JsonApiErrors,
  jsonApiFailure,
} from "./adapter/json-api-failure.js";
export type * from "./adapter/observed.js";
export {
  cachedTokens,
  type IssuedToken,
  providedTokens,
  type TokenProvider,
  type TokenSource,
} from "./adapter/token-cache.js";
export * from "./adapter/types.js";
export * from "./engine/index.js";
export * from "./errors/errors.js";
export { failureToJson, type ReceiptFailureJson } from "./errors/failure-json.js";
export { type HeaderValues, networkFailure, retryAfterMs } from "./errors/http-failure.js";
export { NEVER_CONNECTED, neverLeft, neverSent } from "./errors/never-sent.js";
export {
  MIN_SECRET_LENGTH,
  REDACTED,
  redactError,
  redactedExcerpt,
  redactSecrets,
} from "./errors/redact.js";
export { escapeHtml, unescapeHtml } from "./markdown/escape-html.js";
export { createHtmlRenderer, type HtmlDialect } from "./markdown/html-renderer.js";
export { createMarkdownRenderer, type MarkdownDialect } from "./markdown/markdown-renderer.js";
export { parseMarkdown } from "./markdown/parse-markdown.js";
export { type MarkerRenderDialect, renderMarkers } from "./markdown/render-markers.js";
export {
  escapeAroundUrls,
  hasInvisible,
  isLinkable,
  judgeLinks,
  labelMisleads,
  stripInvisible,
} from "./markdown/untrusted-links.js";
export * from "./media/index.js";
// undici loaded without its global dispatcher, for adapters with their own thin client.
export { sendRequest, undiciAgent } from "./media/remote/undici.js";
export {
  type AgentRunTrace,
  type CallTrace,
  type EnqueueTrace,
  type JobTrace,
  OUTBOX_CHANNELS,
  type PartTrace,
  type SendTrace,
  type WaitNote,
} from "./observe/channels.js";
export * from "./parse/index.js";
export * from "./payload/types.js";
export * from "./stream/index.js";
