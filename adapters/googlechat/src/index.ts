/** @outbox/googlechat: the Outbox adapter for Google Chat as a Chat app. */
export { CHAT_BOT_SCOPE, createGoogleChatAdapter } from "./adapter.js";
export {
  GOOGLE_CHAT_RATE_LIMITS,
  googlechatCapabilities,
  googlechatCapabilitiesFor,
  MAX_MESSAGE_BYTES,
  MAX_TEXT_LENGTH,
} from "./capabilities.js";
export { googleChatRenderer, renderGoogleChatText } from "./render/renderer.js";
export { clientMessageId } from "./transport/message-id.js";
export type { GoogleChatAdapterConfig, ServiceAccountKey } from "./types.js";
