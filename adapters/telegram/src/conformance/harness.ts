/**
 * The conformance harness of the Telegram adapter: per case, a fresh emulator and an
 * adapter built with `apiRoot` pointing at it and the conformance media policy. The
 * emulator downloads URL media from the fixture server itself, as Telegram would.
 */
import { type ConformanceHarness, conformanceMedia, harnessClock } from "@outbox/conformance";
import { createTelegramAdapter } from "../adapter.js";
import { startTelegramEmulator } from "../testing/emulator/server.js";
import type { TelegramEmulatorOptions } from "../testing/emulator/types.js";
import { createUrlFetcher } from "../testing/fetch-url.js";
import type { TelegramAdapterConfig } from "../types.js";

/** The private chat the harness sends to. */
export const HARNESS_CHAT = 42;

/** Options of {@link createTelegramHarness}. */
export interface TelegramHarnessOptions {
  /** Suite label. Default `telegram`. */
  name?: string;
  /** Emulator options on top of the harness's (chat, URL fetching). */
  emulator?: TelegramEmulatorOptions;
  /** Adapter options on top of the harness's (token, apiRoot, media policy). */
  adapter?: Partial<TelegramAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createTelegramHarness(options: TelegramHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "telegram",
    virtualTime: true,
    async setup(setup) {
      const media = await conformanceMedia();
      const clocked = harnessClock(setup);
      const emulator = await startTelegramEmulator({
        chats: [{ id: HARNESS_CHAT, topics: "any" }],
        fetchUrl: createUrlFetcher({
          ca: media.ca,
          ...(media.policy.lookup ? { lookup: media.policy.lookup } : {}),
        }),
        ...clocked.emulator,
        ...options.emulator,
      });
      // A bot can only write to a user who wrote first; this also keeps topic ids above 1.
      emulator.seedMessage(HARNESS_CHAT, "/start");
      const adapter = createTelegramAdapter({
        token: emulator.token,
        apiRoot: emulator.apiRoot,
        timeoutSeconds: 10,
        media: { ...media.policy, ...setup?.media },
        ...clocked.adapter,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: String(HARNESS_CHAT) },
        observe: () => emulator.observe(HARNESS_CHAT),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        fetched: () => [...emulator.urlFetches],
        // A message id as Telegram issues them (an int32), naming no message of the chat.
        unknownMessageId: "2147483647",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
