/** Testing tools for the WhatsApp adapter: the strict Cloud API emulator and a ready emulated conversation. */
export { createEmulatedChannel, EMULATED_RECIPIENT, type WhatsAppEmulatedChannel } from "./channel.js";
export {
  createLinkFetcher,
  type LinkedMessage,
  type LinkFetch,
  type LinkFetcher,
  type LinkFetcherOptions,
} from "./emulator/fetch-links.js";
export { type DecodedMarkup, decodeMarkup } from "./emulator/markup.js";
export {
  type EmulatorRequest,
  startWhatsAppEmulator,
  WHATSAPP_FAULT_TARGETS,
  type WhatsAppEmulator,
} from "./emulator/server.js";
export type {
  Fault,
  ObservedMessage,
  StoredMedia,
  StoredMessage,
  WhatsAppEmulatorOptions,
} from "./emulator/types.js";
