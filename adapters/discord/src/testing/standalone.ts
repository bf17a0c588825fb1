/** The Discord emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startDiscordEmulator } from "./emulator/server.js";
import { DEFAULT_CHANNEL } from "./emulator/types.js";

/** Start it with its default channel, then one channel (a snowflake) per extra chat. */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const extra = Array.from({ length: options.extraChats ?? 0 }, (_, i) =>
    (1100000000000001001n + BigInt(i)).toString(),
  );
  const ids = [DEFAULT_CHANNEL, ...extra];
  const emulator = await startDiscordEmulator({
    channels: ids.map((id) => ({ id })),
    ...(options.rateLimits === false ? { messageBucket: false, globalPerSecond: false } : {}),
  });
  return {
    env: { OUTBOX_DISCORD_TOKEN: emulator.token, OUTBOX_DISCORD_API: emulator.api },
    chats: ids,
    requests: emulator.requests,
    observe: (chat) => emulator.observe(chat),
    close: () => emulator.close(),
  };
}
