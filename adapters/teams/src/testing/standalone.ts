/** The Teams emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startTeamsEmulator } from "./emulator/server.js";

/** Start it with a personal conversation (`a:1outbox-0`), then one per extra chat (`a:1outbox-<i>`). */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const ids = Array.from({ length: 1 + (options.extraChats ?? 0) }, (_, i) => `a:1outbox-${i}`);
  const emulator = await startTeamsEmulator({
    conversations: ids.map((id) => ({ id })),
    ...(options.rateLimits === false ? { rateLimits: false as const } : {}),
  });
  for (const id of ids) emulator.seedMessage(id, "hi");
  return {
    env: {
      OUTBOX_TEAMS_CLIENT_ID: emulator.clientId,
      OUTBOX_TEAMS_CLIENT_SECRET: emulator.clientSecret,
      OUTBOX_TEAMS_TENANT_ID: emulator.tenantId,
      OUTBOX_TEAMS_SERVICE_URL: emulator.serviceUrl,
      OUTBOX_TEAMS_TOKEN_URL: emulator.tokenUrl,
    },
    chats: ids,
    requests: emulator.requests,
    observe: (chat) => emulator.observe(chat),
    close: () => emulator.close(),
  };
}
