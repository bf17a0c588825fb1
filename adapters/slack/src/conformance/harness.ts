/**
 * The conformance harness of the Slack adapter: per case, a fresh emulator and an adapter
 * built with `slackApiUrl` pointing at it and the conformance media policy. Slack fetches no
 * URLs, so URL media is loaded by core's loader from the fixture server and uploaded.
 */
import { type ConformanceHarness, conformanceMedia, harnessClock } from "@outbox/conformance";
import { createSlackAdapter } from "../adapter.js";
import { startSlackEmulator } from "../testing/emulator/server.js";
import type { SlackEmulatorOptions } from "../testing/emulator/types.js";
import type { SlackAdapterConfig } from "../types.js";

/** The channel the harness sends to. */
export const HARNESS_CHANNEL = "C0CONFORM";

/** Options of {@link createSlackHarness}. */
export interface SlackHarnessOptions {
  /** Suite label. Default `slack`. */
  name?: string;
  /** Emulator options on top of the harness's (the channel). */
  emulator?: SlackEmulatorOptions;
  /** Adapter options on top of the harness's (token, slackApiUrl, media policy). */
  adapter?: Partial<SlackAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createSlackHarness(options: SlackHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "slack",
    formatGaps: {
      spoiler: "Slack has no spoiler formatting; the text is shown plainly",
      codeLanguage: "mrkdwn code blocks carry no language (Slack shows none)",
    },
    virtualTime: true,
    async setup(setup) {
      const media = await conformanceMedia();
      const clocked = harnessClock(setup);
      const emulator = await startSlackEmulator({
        channels: [{ id: HARNESS_CHANNEL }],
        ...clocked.emulator,
        ...options.emulator,
      });
      const adapter = createSlackAdapter({
        token: emulator.token,
        slackApiUrl: emulator.slackApiUrl,
        clientOptions: { timeout: 10_000 },
        media: media.policy,
        ...clocked.adapter,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: HARNESS_CHANNEL },
        observe: () => emulator.observe(HARNESS_CHANNEL),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        // A message `ts` as Slack issues them, naming no message of the channel.
        unknownMessageId: "1700000000.999999",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
