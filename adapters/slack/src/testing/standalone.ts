/** The Slack emulator alone, reached through the environment (`AdapterDescriptor.startEmulator`). */
import type { StandaloneEmulator, StandaloneEmulatorOptions } from "@outbox/core";
import { startSlackEmulator } from "./emulator/server.js";

/** Start it with channel `C0BENCH`, then `C0LOAD<i>` for each extra chat. */
export async function startStandaloneEmulator(
  options: StandaloneEmulatorOptions = {},
): Promise<StandaloneEmulator> {
  const ids = ["C0BENCH", ...Array.from({ length: options.extraChats ?? 0 }, (_, i) => `C0LOAD${i + 1}`)];
  const emulator = await startSlackEmulator({
    channels: ids.map((id) => ({ id })),
    ...(options.rateLimits === false ? { rateLimits: false } : {}),
  });
  return {
    env: { OUTBOX_SLACK_TOKEN: emulator.token, OUTBOX_SLACK_API_URL: emulator.slackApiUrl },
    chats: ids,
    requests: emulator.requests,
    observe: (chat) => emulator.observe(chat),
    close: () => emulator.close(),
  };
}
