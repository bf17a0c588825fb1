/** @outbox/slack: the Outbox adapter for Slack, on @slack/web-api (a Bolt App accepted). */
export { createSlackAdapter } from "./adapter.js";
export { slackCapabilities } from "./capabilities.js";
export { createSlackRenderer, type SlackRendererOptions, slackRenderer } from "./render/renderer.js";
export { createSlackClient, type SlackClient } from "./transport/client.js";
export { createSlackTransport, type SlackTransportOptions } from "./transport/transport.js";
export type { SlackAdapterConfig, SlackAppLike } from "./types.js";
