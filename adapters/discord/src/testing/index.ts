/** Testing tools for the Discord adapter: the strict API emulator and a ready emulated channel. No test framework at run time. */
export { createEmulatedChannel, type DiscordEmulatedChannel } from "./channel.js";
export { DiscordApiError } from "./emulator/api-error.js";
export { type DecodedMarkdown, decodeDiscordMarkdown } from "./emulator/markdown.js";
export {
  DISCORD_FAULT_TARGETS,
  type DiscordEmulator,
  type DiscordEmulatorRequest,
  startDiscordEmulator,
} from "./emulator/server.js";
export type { StoredMessage } from "./emulator/store.js";
export {
  DEFAULT_CHANNEL,
  DEFAULT_USER,
  type DiscordEmulatorOptions,
  type EmulatedDiscordChannel,
  type EmulatorBucket,
} from "./emulator/types.js";
