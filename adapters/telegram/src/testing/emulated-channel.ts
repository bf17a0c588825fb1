/**
 * `createEmulatedChannel` for Telegram: a fresh Bot API emulator on 127.0.0.1, a private chat
 * holding one message from the user to reply to, and the real adapter (grammY) pointed at it.
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createTelegramAdapter } from "../adapter.js";
import { startTelegramEmulator, type TelegramEmulator } from "./emulator/server.js";
import { createUrlFetcher } from "./fetch-url.js";

/** The private chat an emulated channel talks in. */
export const EMULATED_CHAT = 4242;

/** A Telegram channel on its emulator, with the emulator at hand for faults and seeding. */
export type TelegramEmulatedChannel = EmulatedChannel<TelegramEmulator>;

/** The user's message seeded into the chat; the target's `currentMessageId` points at it. */
const INBOUND_TEXT = "Hello bot, how did it go?";

/**
 * Start a Telegram emulator and an adapter talking to it. URL media is downloaded by the
 * emulator itself (as Telegram's servers do), trusting `options.ca` and resolving with
 * `options.lookup`; the adapter loads media with `options.media`.
 */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<TelegramEmulatedChannel> {
  const emulator = await startTelegramEmulator({
    chats: [{ id: EMULATED_CHAT }],
    fetchUrl: createUrlFetcher({
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    }),
  });
  const currentMessageId = emulator.seedMessage(EMULATED_CHAT, INBOUND_TEXT);
  const adapter = createTelegramAdapter({
    token: emulator.token,
    apiRoot: emulator.apiRoot,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return {
    platform: adapter.name,
    adapter,
    target: { to: String(EMULATED_CHAT), currentMessageId },
    emulator,
    inject: (fault) => emulator.inject(fault),
    observe: () => emulator.observe(EMULATED_CHAT),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
