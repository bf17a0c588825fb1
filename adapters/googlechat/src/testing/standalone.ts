/** The Google Chat emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startGoogleChatEmulator } from "./emulator/server.js";

/** Start it with a space (`spaces/OUTBOX0`), then one per extra chat (`spaces/OUTBOX<i>`). */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const names = Array.from({ length: 1 + (options.extraChats ?? 0) }, (_, i) => `spaces/OUTBOX${i}`);
  const emulator = await startGoogleChatEmulator({
    spaces: names.map((name) => ({ name })),
    ...(options.rateLimits === false ? { rateLimits: false as const } : {}),
  });
  for (const name of names) emulator.seedMessage(name, "hi");
  return {
    env: {
      OUTBOX_GOOGLECHAT_CREDENTIALS: JSON.stringify(emulator.credentials),
      OUTBOX_GOOGLECHAT_API_URL: emulator.apiUrl,
    },
    chats: names,
    requests: emulator.requests,
    observe: (chat) => emulator.observe(chat),
    close: () => emulator.close(),
  };
}
