/**
 * `@outbox/web/conformance`: the web adapter's conformance harness, whose observations are
 * read from the inbox page rendered in a real Chromium, and the pieces it is built from (the
 * browser launcher, the DOM snapshot and its decoder). Needs `playwright-core` and
 * `@outbox/conformance` (optional peers).
 */
export {
  browserMissing,
  CHROMIUM_CANDIDATES,
  CHROMIUM_FLAGS,
  findChromium,
  type LaunchBrowserOptions,
  launchBrowser,
} from "./browser.js";
export {
  decodeArticle,
  decodeInbox,
  type InboxEmbed,
  type InboxKind,
  type InboxMessage,
  toObserved,
} from "./decode.js";

export {
  createWebHarness,
  type WebHarness,
  type WebHarnessOptions,
} from "./harness.js";
export { type RichText, readRichText } from "./rich-text.js";
export {
  type DomElement,
  type DomNode,
  type DomText,
  type MediaProbe,
  type SnapshotOptions,
  snapshotInbox,
} from "./snapshot.js";
export { waitForImages, waitForMessages } from "./wait.js";
