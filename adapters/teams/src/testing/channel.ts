/**
 * A ready Teams conversation on a fresh emulator, for demos and the CLI: the adapter talks to
 * the emulated connector and identity platform over real HTTP, with the emulator's media host,
 * and the person has written first, so there is a message to reply to.
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createTeamsAdapter } from "../adapter.js";
import { emulatorConfig } from "./adapter-config.js";
import { startTeamsEmulator, type TeamsEmulator } from "./emulator/server.js";

/** A Teams conversation on its emulator (fault targets: docs/adapters/teams.md, "Faults"). */
export type TeamsEmulatedChannel = EmulatedChannel<TeamsEmulator>;

/** The personal conversation the emulated channel is. */
export const EMULATED_CONVERSATION = "a:1outbox-emulated-personal-chat";

/** Start an emulator and wire a Teams adapter to it. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<TeamsEmulatedChannel> {
  const emulator = await startTeamsEmulator({ conversations: [{ id: EMULATED_CONVERSATION }] });
  const currentMessageId = emulator.seedMessage(EMULATED_CONVERSATION, "Show me what you can do.");
  const config = emulatorConfig(emulator);
  const adapter = createTeamsAdapter({
    ...config,
    media: { ...config.media, ...options.media },
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: "teams",
    adapter,
    target: { to: EMULATED_CONVERSATION, currentMessageId },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(EMULATED_CONVERSATION),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
