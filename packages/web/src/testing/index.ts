/** @outbox/web/testing: a ready web channel (inbox + adapter) and the page decoder. */
export { decodeHtml } from "../render/decode-html.js";
export { createEmulatedChannel, type WebEmulatedChannel } from "./emulated-channel.js";
export { observeMessages } from "./observe.js";
