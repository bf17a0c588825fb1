/**
 * The conformance harness of the WhatsApp adapter: per case, a fresh emulator (a test number
 * whose allowed list holds the harness's person, who wrote first) and an adapter built with
 * `graphApiUrl` pointing at it and the conformance media policy. The pair rate limit runs 60
 * times faster than Meta's (one message per 100 ms, bursts of 5) on both sides, so the pacing
 * cases take seconds instead of minutes; the pacing logic is the same.
 */
import { type ConformanceHarness, conformanceMedia, harnessClock } from "@outbox/conformance";
import { createWhatsAppAdapter } from "../adapter.js";
import type { WhatsAppLimits } from "../capabilities.js";
import { createLinkFetcher } from "../testing/emulator/fetch-links.js";
import { startWhatsAppEmulator } from "../testing/emulator/server.js";
import type { WhatsAppEmulatorOptions } from "../testing/emulator/types.js";
import type { WhatsAppAdapterConfig } from "../types.js";

/** The person the harness writes to. */
export const HARNESS_RECIPIENT = "15550009876";

/** The limits the harness's adapter and emulator share. */
export const HARNESS_LIMITS: WhatsAppLimits = { pairIntervalMs: 100, pairBurst: 5 };

/** Options of {@link createWhatsAppHarness}. */
export interface WhatsAppHarnessOptions {
  /** Suite label. Default `whatsapp`. */
  name?: string;
  /** Emulator options on top of the harness's. */
  emulator?: WhatsAppEmulatorOptions;
  /** Adapter options on top of the harness's (token, phone number id, graphApiUrl, media policy, limits). */
  adapter?: Partial<WhatsAppAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createWhatsAppHarness(options: WhatsAppHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "whatsapp",
    formatGaps: {
      spoiler: "WhatsApp has no spoiler formatting; the text is shown plainly",
      codeLanguage: "WhatsApp's monospace blocks carry no language",
      linkLabel: "WhatsApp links have no label: the label is shown, then the URL the client links",
    },
    virtualTime: true,
    async setup(setup) {
      const media = await conformanceMedia();
      const clocked = harnessClock(setup);
      // Media sent by `link` is fetched as Meta fetches it, so the cases judge the bytes it got.
      const links = createLinkFetcher({
        ca: media.ca,
        ...(media.policy.lookup ? { lookup: media.policy.lookup } : {}),
      });
      const emulator = await startWhatsAppEmulator({
        allowedRecipients: [HARNESS_RECIPIENT],
        limits: HARNESS_LIMITS,
        links,
        ...clocked.emulator,
        ...options.emulator,
      });
      emulator.seedMessage(HARNESS_RECIPIENT, "Hi!");
      const adapter = createWhatsAppAdapter({
        token: emulator.token,
        phoneNumberId: emulator.phoneNumberId,
        graphApiUrl: emulator.graphApiUrl,
        timeoutMs: 10_000,
        limits: HARNESS_LIMITS,
        media: { ...media.policy, ...setup?.media },
        ...clocked.adapter,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: HARNESS_RECIPIENT },
        observe: () => emulator.observe(HARNESS_RECIPIENT),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        fetched: () => links.fetches().map((fetch) => fetch.url),
        // A `wamid.` as WhatsApp issues them, naming no message of the conversation.
        unknownMessageId: "wamid.HBgLMTU1NTAwMDk4NzYVAgARGBI5QUZGRkZGRkZGRkZGRkZGRkYA",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
