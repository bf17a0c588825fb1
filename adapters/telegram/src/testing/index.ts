/** Testing tools for the Telegram adapter: the strict Bot API emulator and the conformance harness. */
export {
  EntityParseError,
  type ParsedText,
  parseTelegramHtml,
  type TextEntity,
} from "./emulator/html-entities.js";
export { type EmulatorRequest, startTelegramEmulator, type TelegramEmulator } from "./emulator/server.js";
export type {
  EmulatedChat,
  EmulatorRateLimits,
  Fault,
  FetchedUrl,
  ObservedMessage,
  TelegramEmulatorOptions,
} from "./emulator/types.js";
export { createTelegramHarness, HARNESS_CHAT, type TelegramHarnessOptions } from "./harness.js";
