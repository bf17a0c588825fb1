/** The Telegram emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startTelegramEmulator } from "./emulator/server.js";

/** Its default chat. */
const CHAT = 42;

/** Start it: chat 42, then for each extra chat `i` a private chat `i` and a group `-i` (groups have their own limit). */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const extra = Array.from({ length: options.extraChats ?? 0 }, (_, i) => i + 1);
  const ids = [CHAT, ...extra, ...extra.map((id) => -id)];
  const emulator = await startTelegramEmulator({
    chats: ids.map((id) => ({ id })),
    ...(options.rateLimits === false ? { rateLimits: false } : {}),
  });
  return {
    env: { OUTBOX_TELEGRAM_TOKEN: emulator.token, OUTBOX_TELEGRAM_API_ROOT: emulator.apiRoot },
    chats: ids.map(String),
    requests: emulator.requests,
    observe: (chat) => emulator.observe(Number(chat)),
    close: () => emulator.close(),
  };
}
