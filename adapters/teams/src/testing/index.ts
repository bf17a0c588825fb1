/** Testing tools for the Teams adapter: the strict connector emulator and a ready emulated conversation. */
export { emulatorConfig } from "./adapter-config.js";
export { createEmulatedChannel, EMULATED_CONVERSATION, type TeamsEmulatedChannel } from "./channel.js";
export { type EmulatedMediaHost, startEmulatedMediaHost } from "./emulator/hosted.js";
export { decodeHtml } from "./emulator/html.js";
export {
  EMULATOR_IDENTITY,
  startTeamsEmulator,
  TEAMS_FAULT_TARGETS,
  type TeamsEmulator,
} from "./emulator/server.js";
export type {
  ConversationType,
  EmulatedConversation,
  Fault,
  ObservedMessage,
  StoredActivity,
  TeamsEmulatorOptions,
} from "./emulator/types.js";
