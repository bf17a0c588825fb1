/** The Matrix homeserver emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startMatrixEmulator } from "./emulator/server.js";
import { DEFAULT_ROOM } from "./emulator/types.js";

/** Start it with its default room, then `!load<i>:outbox.test` per extra chat; limits on: Synapse's default `rc_message`. */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const ids = [
    DEFAULT_ROOM,
    ...Array.from({ length: options.extraChats ?? 0 }, (_, i) => `!load${i + 1}:outbox.test`),
  ];
  const emulator = await startMatrixEmulator({
    rooms: ids.map((id) => ({ id })),
    ...(options.rateLimits === false ? { rateLimit: false } : {}),
  });
  return {
    env: { OUTBOX_MATRIX_TOKEN: emulator.accessToken, OUTBOX_MATRIX_HOMESERVER: emulator.homeserver },
    chats: ids,
    requests: emulator.requests,
    observe: (chat) => emulator.observe(chat),
    close: () => emulator.close(),
  };
}
