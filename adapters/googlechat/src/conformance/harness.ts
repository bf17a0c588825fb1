/**
 * The conformance harness of the Google Chat adapter: per case, a fresh emulator (a space the
 * app is in, with a person's message whose thread the thread cases post to) and an adapter
 * built with the emulator's key and API, and the conformance media policy with the suite's
 * media host (what a case's `setup({ media })` asks overrides it). The quotas are Google's
 * on both sides.
 */
import type { LookupFunction } from "node:net";
import { type ConformanceHarness, conformanceMedia, harnessClock } from "@outbox/conformance";
import { createGoogleChatAdapter } from "../adapter.js";
import { emulatorConfig } from "../testing/adapter-config.js";
import { startGoogleChatEmulator } from "../testing/emulator/server.js";
import type { GoogleChatEmulatorOptions } from "../testing/emulator/types.js";
import type { GoogleChatAdapterConfig } from "../types.js";

/** The space the harness writes to. */
export const HARNESS_SPACE = "spaces/OUTBOXharness";

/** Options of {@link createGoogleChatHarness}. */
export interface GoogleChatHarnessOptions {
  /** Suite label. Default `googlechat`. */
  name?: string;
  /** Emulator options on top of the harness's. */
  emulator?: GoogleChatEmulatorOptions;
  /** Adapter options on top of the harness's. */
  adapter?: Partial<GoogleChatAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createGoogleChatHarness(options: GoogleChatHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "googlechat",
    formatGaps: {
      spoiler: "Google Chat has no spoiler formatting; the text is shown plainly",
      quote: "Google Chat documents no quote markup for an app's text: quoted lines are shown as plain lines",
      codeLanguage: "Google Chat's monospace blocks carry no language",
    },
    virtualTime: true,
    async setup(setup) {
      const media = await conformanceMedia();
      const clocked = harnessClock(setup);
      const emulator = await startGoogleChatEmulator({
        spaces: [{ name: HARNESS_SPACE }],
        // Chat fetches the suite's media server and host: trust its CA and resolve its names.
        fetchConnect: {
          ca: media.ca,
          ...(media.policy.lookup ? { lookup: media.policy.lookup as LookupFunction } : {}),
        },
        ...clocked.emulator,
        ...options.emulator,
      });
      const { thread } = emulator.seedMessage(HARNESS_SPACE, "a thread to answer in");
      const adapter = createGoogleChatAdapter({
        ...emulatorConfig(emulator),
        timeoutMs: 10_000,
        // An app uploads no attachments: every media case needs the suite's host unless it asks for none.
        media: { ...media.policy, host: media.host, ...setup?.media },
        ...clocked.adapter,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: HARNESS_SPACE, thread },
        observe: () => emulator.observe(HARNESS_SPACE),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        fetched: () => [...emulator.urlFetches],
        unknownMessageId: `${HARNESS_SPACE}/messages/unknown.unknown`,
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
