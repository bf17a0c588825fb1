/**
 * A ready WhatsApp conversation on a fresh emulator, for demos and the CLI: the adapter
 * talks to it over real HTTP, and the person has written first (the 24-hour window is open),
 * so there is a message to reply to.
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createWhatsAppAdapter } from "../adapter.js";
import { createLinkFetcher } from "./emulator/fetch-links.js";
import { startWhatsAppEmulator, type WhatsAppEmulator } from "./emulator/server.js";

/** A WhatsApp conversation on its emulator (fault targets `messages` and `media`: docs/adapters/whatsapp.md, "Faults"). */
export type WhatsAppEmulatedChannel = EmulatedChannel<WhatsAppEmulator>;

/** The person the emulated conversation is with. */
export const EMULATED_RECIPIENT = "15550001234";

/** Start an emulator and wire a WhatsApp adapter to it. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<WhatsAppEmulatedChannel> {
  const emulator = await startWhatsAppEmulator({
    allowedRecipients: [EMULATED_RECIPIENT],
    links: createLinkFetcher({
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    }),
  });
  const currentMessageId = emulator.seedMessage(EMULATED_RECIPIENT, "Show me what you can do.");
  const adapter = createWhatsAppAdapter({
    token: emulator.token,
    phoneNumberId: emulator.phoneNumberId,
    graphApiUrl: emulator.graphApiUrl,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: "whatsapp",
    adapter,
    target: { to: EMULATED_RECIPIENT, currentMessageId },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(EMULATED_RECIPIENT),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
