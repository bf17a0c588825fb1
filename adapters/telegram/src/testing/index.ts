/**
 * Testing tools for the Telegram adapter: the strict Bot API emulator and
 * `createEmulatedChannel`. No test runner or conformance package is needed at run time;
 * the conformance harness is under `@outbox/telegram/conformance`.
 */
export { createEmulatedChannel, EMULATED_CHAT, type TelegramEmulatedChannel } from "./emulated-channel.js";
export {
  EntityParseError,
  type ParsedText,
  parseTelegramHtml,
  type TextEntity,
} from "./emulator/html-entities.js";
export {
  type EmulatorRequest,
  startTelegramEmulator,
  TELEGRAM_FAULT_TARGETS,
  type TelegramEmulator,
} from "./emulator/server.js";
export type {
  EmulatedChat,
  EmulatorRateLimits,
  Fault,
  FetchedUrl,
  ObservedMessage,
  TelegramEmulatorOptions,
} from "./emulator/types.js";
export { createUrlFetcher, type UrlFetcherOptions } from "./fetch-url.js";
