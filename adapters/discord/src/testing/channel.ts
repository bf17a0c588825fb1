/**
 * A ready emulated Discord channel: a fresh emulator, the adapter pointed at it, and a
 * seeded inbound message to reply to (core's `EmulatedChannel`, for demos and the CLI).
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createDiscordAdapter } from "../adapter.js";
import { type DiscordEmulator, startDiscordEmulator } from "./emulator/server.js";
import { DEFAULT_CHANNEL } from "./emulator/types.js";

/** A Discord channel on its emulator, with the emulator at hand for faults and seeding. */
export type DiscordEmulatedChannel = EmulatedChannel<DiscordEmulator>;

/** Start an emulator and wire the Discord adapter to it. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<DiscordEmulatedChannel> {
  const emulator = await startDiscordEmulator();
  const inbound = emulator.seedMessage(DEFAULT_CHANNEL, "Hello, bot!");
  const adapter = createDiscordAdapter({
    token: emulator.token,
    api: emulator.api,
    timeoutMs: 10_000,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: "discord",
    adapter,
    target: { to: DEFAULT_CHANNEL, currentMessageId: inbound },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(DEFAULT_CHANNEL),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
