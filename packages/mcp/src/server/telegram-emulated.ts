/**
 * A local stand-in for `createEmulatedChannel` of `@outbox/telegram/testing`, built on its
 * `startTelegramEmulator` until that package exports its own (then this file goes and the
 * registry imports Telegram's). The emulator holds one private chat, 42, with a seeded message.
 */
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";

/** The chat the emulated Telegram channel sends to. */
const CHAT = 42;

/** A Telegram adapter wired to a fresh Bot API emulator on 127.0.0.1. */
export async function createTelegramEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<EmulatedChannel> {
  const [{ createTelegramAdapter }, { startTelegramEmulator }] = await Promise.all([
    import("@outbox/telegram"),
    import("@outbox/telegram/testing"),
  ]);
  const emulator = await startTelegramEmulator({ chats: [{ id: CHAT, topics: "any" }] });
  const currentMessageId = emulator.seedMessage(CHAT, "/start");
  const adapter = createTelegramAdapter({
    token: emulator.token,
    apiRoot: emulator.apiRoot,
    ...(options.media === undefined ? {} : { media: options.media }),
  });
  return {
    platform: "telegram",
    adapter,
    target: { to: String(CHAT), currentMessageId },
    observe: () => emulator.observe(CHAT),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
