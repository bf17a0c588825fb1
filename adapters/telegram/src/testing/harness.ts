/**
 * The conformance harness of the Telegram adapter: per case, a fresh emulator and an
 * adapter built with `apiRoot` pointing at it and the conformance media policy. The
 * emulator downloads URL media from the fixture server itself, as Telegram would.
 */
import { lookup as dnsLookup } from "node:dns";
import { get } from "node:https";
import type { LookupFunction } from "node:net";
import { type ConformanceHarness, conformanceMedia } from "@outbox/conformance";
import { createTelegramAdapter } from "../adapter.js";
import type { TelegramAdapterConfig } from "../types.js";
import { startTelegramEmulator } from "./emulator/server.js";
import type { FetchedUrl, TelegramEmulatorOptions } from "./emulator/types.js";

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
    async setup() {
      const media = await conformanceMedia();
      const emulator = await startTelegramEmulator({
        chats: [{ id: HARNESS_CHAT, topics: "any" }],
        fetchUrl: fixtureFetch(media.ca, media.policy.lookup ?? dnsLookup),
        ...options.emulator,
      });
      // A bot can only write to a user who wrote first; this also keeps topic ids above 1.
      emulator.seedMessage(HARNESS_CHAT, "/start");
      const adapter = createTelegramAdapter({
        token: emulator.token,
        apiRoot: emulator.apiRoot,
        timeoutSeconds: 10,
        media: media.policy,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: String(HARNESS_CHAT) },
        observe: () => emulator.observe(HARNESS_CHAT),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}

/** Downloads over https from the fixture server: its host names resolved by `lookup`, its certificate trusted. */
function fixtureFetch(ca: string, lookup: LookupFunction): NonNullable<TelegramEmulatorOptions["fetchUrl"]> {
  return (url, signal) =>
    new Promise<FetchedUrl>((resolve, reject) => {
      if (!url.startsWith("https://")) {
        reject(new Error(`the harness fetches https only: ${url}`));
        return;
      }
      get(url, { ca, lookup, signal }, (res) => {
        resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"] ?? null, body: res });
      }).on("error", reject);
    });
}
