/**
 * The conformance harness of the Discord adapter: per case, a fresh emulator and an
 * adapter built with `api` pointing at it and the conformance media policy.
 *
 * It runs in real time (no `virtualTime`): `@discordjs/rest` keeps each bucket's state from
 * the platform's rate-limit headers on the wall clock and refuses a request its bucket holds
 * until that time, so its waits cannot pass on a virtual clock the emulator shares.
 */
import { type ConformanceHarness, conformanceMedia } from "@outbox/conformance";
import { createDiscordAdapter } from "../adapter.js";
import { startDiscordEmulator } from "../testing/emulator/server.js";
import { DEFAULT_CHANNEL, type DiscordEmulatorOptions } from "../testing/emulator/types.js";
import type { DiscordAdapterConfig } from "../types.js";

/** Options of {@link createDiscordHarness}. */
export interface DiscordHarnessOptions {
  /** Suite label. Default `discord`. */
  name?: string;
  /** Emulator options. */
  emulator?: DiscordEmulatorOptions;
  /** Adapter options on top of the harness's (token, api, media policy). */
  adapter?: Partial<DiscordAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createDiscordHarness(options: DiscordHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "discord",
    async setup() {
      const media = await conformanceMedia();
      const emulator = await startDiscordEmulator(options.emulator);
      const adapter = createDiscordAdapter({
        token: emulator.token,
        api: emulator.api,
        timeoutMs: 10_000,
        media: media.policy,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: DEFAULT_CHANNEL },
        observe: () => emulator.observe(DEFAULT_CHANNEL),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        // A snowflake as Discord issues them, naming no message of the channel.
        unknownMessageId: "1099511627776000001",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
