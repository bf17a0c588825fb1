/** Testing tools for the Google Chat adapter: the strict Chat API emulator and a ready emulated space. */
export { emulatorConfig } from "./adapter-config.js";
export { createEmulatedChannel, EMULATED_SPACE, type GoogleChatEmulatedChannel } from "./channel.js";
export { decodeChatText } from "./emulator/markup.js";
export {
  GOOGLE_CHAT_FAULT_TARGETS,
  type GoogleChatEmulator,
  startGoogleChatEmulator,
} from "./emulator/server.js";
export type {
  EmulatedSpace,
  Fault,
  GoogleChatEmulatorOptions,
  ObservedMessage,
  StoredMessage,
} from "./emulator/types.js";
