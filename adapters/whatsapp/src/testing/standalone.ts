/** The WhatsApp Cloud API emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startWhatsAppEmulator } from "./emulator/server.js";

/** Start it; each chat is a person who wrote first (`15550000042`, then `1555100<i>`), so the 24-hour window is open. */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const extra = Array.from(
    { length: options.extraChats ?? 0 },
    (_, i) => `1555100${String(i + 1).padStart(4, "0")}`,
  );
  const ids = ["15550000042", ...extra];
  const emulator = await startWhatsAppEmulator(options.rateLimits === false ? { limits: false } : {});
  for (const id of ids) emulator.seedMessage(id, "hi");
  return {
    env: {
      OUTBOX_WHATSAPP_TOKEN: emulator.token,
      OUTBOX_WHATSAPP_PHONE_NUMBER_ID: emulator.phoneNumberId,
      OUTBOX_WHATSAPP_GRAPH_API_URL: emulator.graphApiUrl,
    },
    chats: ids,
    requests: emulator.requests,
    observe: (chat) => emulator.observe(chat),
    close: () => emulator.close(),
  };
}
