/**
 * A ready Slack channel on a fresh emulator, for demos and the CLI: the adapter talks to it
 * through the real `WebClient`, and the channel holds one inbound message to reply to.
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createSlackAdapter } from "../adapter.js";
import { type SlackEmulator, startSlackEmulator } from "./emulator/server.js";

/** A Slack channel on its emulator, with the emulator at hand for faults and seeding. */
export type SlackEmulatedChannel = EmulatedChannel<SlackEmulator>;

/** The channel the emulated conversation happens in. */
export const EMULATED_CHANNEL = "C0OUTBOX";

/** Start an emulator and wire a Slack adapter to it. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<SlackEmulatedChannel> {
  const emulator = await startSlackEmulator({ channels: [{ id: EMULATED_CHANNEL }] });
  const currentMessageId = emulator.seedMessage(EMULATED_CHANNEL, "Show me what you can do.");
  const adapter = createSlackAdapter({
    token: emulator.token,
    slackApiUrl: emulator.slackApiUrl,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: "slack",
    adapter,
    target: { to: EMULATED_CHANNEL, currentMessageId },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(EMULATED_CHANNEL),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
