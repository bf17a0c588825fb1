/**
 * The Discord adapter: capabilities, the Markdown renderer and the REST transport, put
 * together by core's engine.
 */
import { type ChannelAdapter, createAdapter } from "@outbox/core";
import { discordCapabilitiesFor } from "./capabilities.js";
import { discordRenderer } from "./render/renderer.js";
import { createDiscordRest } from "./rest/create-rest.js";
import { createDiscordTransport } from "./transport/transport.js";
import type { DiscordAdapterConfig } from "./types.js";

/** Create the Discord adapter. Throws a `TypeError` when none of `token`, `rest`, `client` is given. */
export function createDiscordAdapter(config: DiscordAdapterConfig): ChannelAdapter {
  const client = createDiscordRest(config);
  const transport = createDiscordTransport(client.rest, {
    ...(config.allowedMentions ? { allowedMentions: config.allowedMentions } : {}),
  });
  return createAdapter({
    name: "discord",
    capabilities: discordCapabilitiesFor(config.maxUploadBytes),
    renderer: discordRenderer,
    transport: { ...transport, close: () => client.close() },
    ...(config.media ? { media: config.media } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.store ? { store: config.store } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    secrets: [config.token, config.client?.token].filter(
      (token): token is string => typeof token === "string",
    ),
  });
}
