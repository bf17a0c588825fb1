/** @outbox/web: the Outbox adapter for the web, a self-hosted inbox with live updates. */
export { createWebAdapter } from "./adapter.js";
export { webCapabilities } from "./capabilities.js";
export { DEFAULT_EMBED_PATHS, embedSource } from "./render/embed-policy.js";
export { webRenderer } from "./render/renderer.js";
export { sanitizeHtml } from "./render/sanitize.js";
export { createWebInboxApp, type WebInboxApp } from "./server/app.js";
export { conversationToken } from "./server/auth.js";
export { createWebInboxHandler, startWebInbox, type WebInbox, type WebInboxHandler } from "./server/start.js";
export { createMemoryWebStore } from "./store/memory-store.js";
export type * from "./store/types.js";
export type * from "./types.js";
