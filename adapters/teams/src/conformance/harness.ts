/**
 * The conformance harness of the Teams adapter: per case, a fresh emulator (a channel
 * conversation the bot is in, so threads work) and an adapter built with the emulator's
 * identity platform and connector, and the conformance media policy with the suite's media
 * host (what a case's `setup({ media })` asks overrides it). The rate
 * limits are Microsoft's on both sides.
 */
import type { LookupFunction } from "node:net";
import { type ConformanceHarness, conformanceMedia, harnessClock } from "@outbox/conformance";
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
    virtualTime: true,
    async setup(setup) {
      const media = await conformanceMedia();
      const clocked = harnessClock(setup);
      const emulator = await startTeamsEmulator({
        conversations: [{ id: HARNESS_CONVERSATION, type: "channel" }],
        // Teams fetches the suite's media server and host: trust its CA and resolve its names.
        fetchConnect: {
          ca: media.ca,
          ...(media.policy.lookup ? { lookup: media.policy.lookup as LookupFunction } : {}),
        },
        ...clocked.emulator,
        ...options.emulator,
      });
      const adapter = createTeamsAdapter({
        ...emulatorConfig(emulator),
        timeoutMs: 10_000,
        // A bot uploads no files: every media case needs the suite's host unless it asks for none.
        media: { ...media.policy, host: media.host, ...setup?.media },
        ...clocked.adapter,
        ...options.adapter,
      });
      return {
        adapter,
        // The thread cases post a root message of their own and reply in its thread.
        target: { to: HARNESS_CONVERSATION },
        observe: () => emulator.observe(HARNESS_CONVERSATION),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        fetched: () => [...emulator.urlFetches],
        unknownMessageId: "1699999999999",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
