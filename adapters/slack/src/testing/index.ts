/** Testing tools for the Slack adapter: the strict Web API emulator and a ready emulated channel. */
export { createEmulatedChannel, EMULATED_CHANNEL, type SlackEmulatedChannel } from "./channel.js";
export { type DecodedMrkdwn, decodeMrkdwn } from "./emulator/mrkdwn.js";
export {
  type EmulatorRequest,
  SLACK_FAULT_TARGETS,
  type SlackEmulator,
  startSlackEmulator,
} from "./emulator/server.js";
export type {
  EmulatedConversation,
  EmulatorRateLimits,
  Fault,
  ObservedMessage,
  SlackEmulatorOptions,
  StoredFile,
  StoredMessage,
} from "./emulator/types.js";
