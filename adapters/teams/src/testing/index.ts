/** Testing tools for the Teams adapter: the strict connector emulator and a ready emulated conversation. */

export { type EmulatedMediaHost, startEmulatedMediaHost } from "@outbox/core/testing";
export { emulatorConfig } from "./adapter-config.js";
export { createEmulatedChannel, EMULATED_CONVERSATION, type TeamsEmulatedChannel } from "./channel.js";
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
