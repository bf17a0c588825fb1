/**
 * @outbox/core/testing: the emulator kit, for whoever writes a platform emulator. The server
 * skeleton (request log, faults, the platform's error answers), fault queue, token buckets,
 * strict multipart and form readers, HTML, marker and Markdown decoders, and the helpers that
 * turn what a platform stored into an `ObservedMessage`.
 *
 * @packageDocumentation
 */

export {
  type CredentialEcho,
  type CredentialEchoOptions,
  startCredentialEcho,
} from "../adapter/credential-echo.js";
export { type EmulatedMediaHost, startEmulatedMediaHost } from "../adapter/emulated-media-host.js";
export { type EmulatorFaults, serveFaults } from "../adapter/emulator-faults.js";
export {
  type AnsweredFault,
  type EmulatorAnswer,
  type EmulatorExchange,
  type EmulatorRequest,
  type EmulatorServer,
  type EmulatorServerOptions,
  type PlatformEmulator,
  serveEmulator,
} from "../adapter/emulator-server.js";
export { createFaultQueue, FAULT_KINDS, type FaultQueue, UnknownFaultError } from "../adapter/fault-queue.js";
export { type HtmlNode, type HtmlReading, type ReadHtml, readHtml } from "../adapter/html-reading.js";
export {
  describeLinkedFile,
  fetchLinkedFile,
  type LinkedFile,
  LinkedFileError,
  servedAsSniffed,
  sniffSignature,
} from "../adapter/linked-file.js";
export { type DecodedMarkdown, decodeMarkdown } from "../adapter/markdown-reading.js";
export type * from "../adapter/observed.js";
export { observedLines } from "../adapter/observed-lines.js";
export { mergeMentions, observedMentions } from "../adapter/observed-mentions.js";
export {
  type DecodedHtml,
  decodeStrictHtml,
  parseStrictHtml,
  type StrictHtml,
  type StrictHtmlDialect,
  StrictHtmlError,
  type StrictHtmlOpenTag,
  type StrictHtmlSpan,
} from "../adapter/strict-html.js";
export {
  type DecodedMarkers,
  decodeStrictMarkers,
  type MarkerAtom,
  type MarkerDialect,
  type MarkerSpan,
} from "../adapter/strict-markers.js";
export {
  type MultipartPartHead,
  type MultipartPartSink,
  multipartBoundary,
  parseFormDataDisposition,
  type ReadFormOptions,
  type ReceivedFilePart,
  type ReceivedForm,
  readStrictForm,
  readStrictMultipart,
  StrictMultipartError,
} from "../adapter/strict-multipart.js";
export { type BucketRule, createTokenBuckets, type TokenBuckets } from "../adapter/token-buckets.js";
