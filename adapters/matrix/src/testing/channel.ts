/**
 * A ready emulated Matrix room: a fresh emulator, the adapter pointed at it, and a seeded
 * inbound message to reply to (core's `EmulatedChannel`, for demos and the CLI).
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createMatrixAdapter } from "../adapter.js";
import { startMatrixEmulator } from "./emulator/server.js";
import { DEFAULT_ROOM } from "./emulator/types.js";

/** Start an emulator and wire the Matrix adapter to it. */
export async function createEmulatedChannel(options: EmulatedChannelOptions = {}): Promise<EmulatedChannel> {
  const emulator = await startMatrixEmulator();
  const inbound = emulator.seedMessage(DEFAULT_ROOM, "Hello, bot!");
  const adapter = createMatrixAdapter({
    homeserver: emulator.homeserver,
    accessToken: emulator.accessToken,
    timeoutMs: 10_000,
    ...(options.media ? { media: options.media } : {}),
  });
  return {
    platform: "matrix",
    adapter,
    target: { to: DEFAULT_ROOM, currentMessageId: inbound },
    observe: () => emulator.observe(DEFAULT_ROOM),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
