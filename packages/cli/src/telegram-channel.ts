/**
 * TEMPORARY SHIM, replaced at merge by `createEmulatedChannel` from `@outbox/telegram/testing`
 * (the packaging branch adds it there). A Telegram channel on a fresh Bot API emulator:
 * one private chat holding one inbound message to reply to, the real grammY adapter
 * pointed at the emulator, and URL media fetched by the emulator itself as Telegram does.
 */
import { get } from "node:https";
import type { EmulatedChannel, EmulatedChannelOptions } from "@outbox/core";
import { createTelegramAdapter } from "@outbox/telegram";
import { type FetchedUrl, startTelegramEmulator } from "@outbox/telegram/testing";

/** The emulated private chat. */
const CHAT = 4242;

/** Start a Telegram emulator and wire the real adapter to it. */
export async function createEmulatedChannel(options: EmulatedChannelOptions = {}): Promise<EmulatedChannel> {
  const emulator = await startTelegramEmulator({
    chats: [{ id: CHAT, topics: "any" }],
    fetchUrl: (url, signal) =>
      new Promise<FetchedUrl>((resolve, reject) => {
        const tls = {
          ...(options.ca ? { ca: options.ca } : {}),
          ...(options.lookup ? { lookup: options.lookup } : {}),
        };
        get(url, { ...tls, signal }, (res) =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers["content-type"] ?? null,
            body: res,
          }),
        ).on("error", reject);
      }),
  });
  const inbound = emulator.seedMessage(CHAT, "How did the release go?");
  const adapter = createTelegramAdapter({
    token: emulator.token,
    apiRoot: emulator.apiRoot,
    timeoutSeconds: 10,
    ...(options.media ? { media: options.media } : {}),
  });
  return {
    platform: "telegram",
    adapter,
    target: { to: String(CHAT), currentMessageId: inbound },
    observe: () => emulator.observe(CHAT),
    close: async () => {
      await adapter.close?.();
      await emulator.close();
    },
  };
}
