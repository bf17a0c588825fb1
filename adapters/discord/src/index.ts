/** @outbox/discord: the Outbox adapter for Discord, on @discordjs/rest (or a discord.js Client). */
export { createDiscordAdapter } from "./adapter.js";
export { DEFAULT_MAX_UPLOAD_BYTES, discordCapabilities, discordCapabilitiesFor } from "./capabilities.js";
export { discordRenderer } from "./render/renderer.js";
export { createDiscordTransport, type DiscordTransportOptions } from "./transport/transport.js";
export type { DiscordAdapterConfig, DiscordAllowedMentions, DiscordRestLike } from "./types.js";
