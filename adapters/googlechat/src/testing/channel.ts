/**
 * A ready Google Chat space on a fresh emulator, for demos and the CLI: the adapter talks to
 * the emulated Chat API and token endpoint over real HTTP, with the emulator's media host,
 * and a person has written first, so there is a message (and its thread) to answer.
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createGoogleChatAdapter } from "../adapter.js";
import { emulatorConfig } from "./adapter-config.js";
import { type GoogleChatEmulator, startGoogleChatEmulator } from "./emulator/server.js";

/** A Google Chat space on its emulator (fault targets: docs/adapters/googlechat.md, "Faults"). */
export type GoogleChatEmulatedChannel = EmulatedChannel<GoogleChatEmulator>;

/** The space the emulated channel is. */
export const EMULATED_SPACE = "spaces/OUTBOXemulated";

/** Start an emulator and wire a Google Chat adapter to it. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<GoogleChatEmulatedChannel> {
  const emulator = await startGoogleChatEmulator({ spaces: [{ name: EMULATED_SPACE }] });
  const seeded = emulator.seedMessage(EMULATED_SPACE, "Show me what you can do.");
  const config = emulatorConfig(emulator);
  const adapter = createGoogleChatAdapter({
    ...config,
    media: { ...config.media, ...options.media },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: "googlechat",
    adapter,
    target: { to: EMULATED_SPACE, currentMessageId: seeded.name },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(EMULATED_SPACE),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
