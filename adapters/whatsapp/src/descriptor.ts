/**
 * The WhatsApp adapter as tools see it (`@outbox/whatsapp/descriptor`): its settings, its
 * packages and its emulator. Loads the adapter only when one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { whatsappCapabilities } from "./capabilities.js";

/** The WhatsApp adapter's descriptor. */
export const descriptor: AdapterDescriptor<"token" | "phoneNumberId" | "graphApiUrl"> = {
  name: "whatsapp",
  title: "WhatsApp",
  packages: ["@outbox/whatsapp"],
  env: [
    {
      name: "OUTBOX_WHATSAPP_TOKEN",
      field: "token",
      required: true,
      secret: true,
      help: "in your Meta app open WhatsApp > API Setup (a temporary token), or generate a System User token with whatsapp_business_messaging",
    },
    {
      name: "OUTBOX_WHATSAPP_PHONE_NUMBER_ID",
      field: "phoneNumberId",
      required: true,
      help: "the Phone number ID of the sending number, under WhatsApp > API Setup",
    },
    {
      name: "OUTBOX_WHATSAPP_GRAPH_API_URL",
      field: "graphApiUrl",
      help: "Graph API root, for a proxy (default https://graph.facebook.com)",
    },
  ],
  target: {
    description:
      "the person's phone number with its country code; they must have written to the number within 24 hours, and be on a test number's allowed list",
    example: "15551234567",
  },
  capabilities: whatsappCapabilities,
  async createAdapter(config, media) {
    const { createWhatsAppAdapter } = await import("./adapter.js");
    return createWhatsAppAdapter({ token: "", phoneNumberId: "", ...config, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
