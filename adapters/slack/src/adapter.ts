/**
 * The Slack adapter: capabilities, the mrkdwn renderer and the Web API transport, put
 * together by core's engine.
 */
import { type ChannelAdapter, ConfigError, createAdapter } from "@outbox/core";
import { slackCapabilities } from "./capabilities.js";
import { createSlackRenderer } from "./render/renderer.js";
import { createSlackClient } from "./transport/client.js";
import { createSlackTransport } from "./transport/transport.js";
import type { SlackAdapterConfig } from "./types.js";

/**
 * Create the Slack adapter. Throws a `ConfigError` (naming the field and the fix) when the
 * config is missing or no token is given or found on `client`.
 */
export function createSlackAdapter(config?: SlackAdapterConfig): ChannelAdapter {
  if (typeof config !== "object" || config === null)
    throw new ConfigError("createSlackAdapter", "is missing", {
      field: "",
      fix: "createSlackAdapter({ token: process.env.OUTBOX_SLACK_TOKEN }) or ({ client: app })",
    });
  const client = createSlackClient(config);
  return createAdapter({
    name: "slack",
    capabilities: slackCapabilities,
    renderer: createSlackRenderer({ mentions: config.mentions ?? false }),
    transport: createSlackTransport(client, { unfurl: config.unfurl ?? false }),
    ...(config.media ? { media: config.media } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.store ? { store: config.store } : {}),
    // Never in our own messages; declared so the engine redacts it wherever else it could surface.
    secrets: [client.token],
  });
}
