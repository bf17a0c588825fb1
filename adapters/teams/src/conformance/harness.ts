/**
 * The conformance harness of the Teams adapter: per case, a fresh emulator (a channel
 * conversation the bot is in, so threads work) and an adapter built with the emulator's
 * identity platform, connector and media host, and the conformance media policy. The rate
 * limits are Microsoft's on both sides.
 */
import { type ConformanceHarness, conformanceMedia } from "@outbox/conformance";
import { createTeamsAdapter } from "../adapter.js";
import { emulatorConfig } from "../testing/adapter-config.js";
import { startTeamsEmulator } from "../testing/emulator/server.js";
import type { TeamsEmulatorOptions } from "../testing/emulator/types.js";
import type { TeamsAdapterConfig } from "../types.js";

/** The channel conversation the harness writes to. */
export const HARNESS_CONVERSATION = "19:outbox-harness-channel@thread.tacv2";

/** Options of {@link createTeamsHarness}. */
export interface TeamsHarnessOptions {
  /** Suite label. Default `teams`. */
  name?: string;
  /** Emulator options on top of the harness's. */
  emulator?: TeamsEmulatorOptions;
  /** Adapter options on top of the harness's. */
  adapter?: Partial<TeamsAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createTeamsHarness(options: TeamsHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "teams",
    formatGaps: {
      spoiler: "Teams has no spoiler formatting; the text is shown plainly",
    },
    async setup() {
      const media = await conformanceMedia();
      const emulator = await startTeamsEmulator({
        conversations: [{ id: HARNESS_CONVERSATION, type: "channel" }],
        ...options.emulator,
      });
      const adapter = createTeamsAdapter({
        ...emulatorConfig(emulator),
        timeoutMs: 10_000,
        media: media.policy,
        ...options.adapter,
      });
      return {
        adapter,
        // The thread cases post a root message of their own and reply in its thread.
        target: { to: HARNESS_CONVERSATION },
        observe: () => emulator.observe(HARNESS_CONVERSATION),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        unknownMessageId: "1699999999999",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
