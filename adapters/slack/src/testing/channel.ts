/**
 * A ready Slack channel on a fresh emulator, for demos and the CLI: the adapter talks to it
 * through the real `WebClient`, and the channel holds one inbound message to reply to.
 */
import type { EmulatedChannel, EmulatedChannelOptions, Fault } from "@outbox/core";
import { createSlackAdapter } from "../adapter.js";
import { type SlackEmulator, startSlackEmulator } from "./emulator/server.js";

/** A Slack channel on its emulator, with the emulator at hand for faults and seeding. */
export interface SlackEmulatedChannel extends EmulatedChannel {
  /** Make the emulator misbehave on its next call(s) (the fault kinds: docs/adapters/slack.md, "Faults"). */
  inject(fault: Fault): void;
  /** The emulator itself: seed messages, count its 429s, read what each request carried. */
  emulator: SlackEmulator;
}

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
