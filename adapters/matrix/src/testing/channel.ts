/**
 * A ready emulated Matrix room: a fresh emulator, the adapter pointed at it, and a seeded
 * inbound message to reply to (core's `EmulatedChannel`, for demos and the CLI).
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createMatrixAdapter } from "../adapter.js";
import { type MatrixEmulator, startMatrixEmulator } from "./emulator/server.js";
import { DEFAULT_ROOM } from "./emulator/types.js";

/** A Matrix room on its emulator (fault targets: docs/adapters/matrix.md, "Faults"). */
export type MatrixEmulatedChannel = EmulatedChannel<MatrixEmulator>;

/** Start an emulator and wire the Matrix adapter to it. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<MatrixEmulatedChannel> {
  const emulator = await startMatrixEmulator();
  const inbound = emulator.seedMessage(DEFAULT_ROOM, "Hello, bot!");
  const adapter = createMatrixAdapter({
    homeserver: emulator.homeserver,
    accessToken: emulator.accessToken,
    timeoutMs: 10_000,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: "matrix",
    adapter,
    target: { to: DEFAULT_ROOM, currentMessageId: inbound },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(DEFAULT_ROOM),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
