/** @outbox/whatsapp: the Outbox adapter for WhatsApp on Meta's Cloud API. */
export { createWhatsAppAdapter } from "./adapter.js";
export {
  WHATSAPP_LIMITS,
  type WhatsAppLimits,
  whatsappCapabilities,
  whatsappCapabilitiesFor,
} from "./capabilities.js";
export { whatsappRenderer } from "./render/renderer.js";
export { createGraphClient, type GraphBody, type GraphClient } from "./transport/graph-client.js";
export { VOICE_NOTE_ICON_MAX } from "./transport/send.js";
export { createWhatsAppTransport } from "./transport/transport.js";
export type { WhatsAppAdapterConfig } from "./types.js";
