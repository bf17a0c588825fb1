/**
 * The conformance harness of the Matrix adapter: per case, a fresh emulator and an adapter
 * built with `homeserver` pointing at it and the conformance media policy. Both keep one
 * faster rate limit (50 events a second, bursts of 5) than Synapse's default so the suite
 * runs in seconds; the pacing case still meets it head-on.
 */
import { type ConformanceHarness, conformanceMedia, harnessClock } from "@outbox/conformance";
import { createMatrixAdapter } from "../adapter.js";
import type { MatrixRateLimit } from "../capabilities.js";
import { startMatrixEmulator } from "../testing/emulator/server.js";
import { DEFAULT_ROOM, type MatrixEmulatorOptions } from "../testing/emulator/types.js";
import type { MatrixAdapterConfig } from "../types.js";

/** The rate limit the harness gives the emulator and the adapter. */
export const HARNESS_RATE_LIMIT: MatrixRateLimit = { perSecond: 50, burst: 5 };

/** Options of {@link createMatrixHarness}. */
export interface MatrixHarnessOptions {
  /** Suite label. Default `matrix`. */
  name?: string;
  /** Emulator options. */
  emulator?: MatrixEmulatorOptions;
  /** Adapter options on top of the harness's (homeserver, token, media policy, rate limit). */
  adapter?: Partial<MatrixAdapterConfig>;
}

/** Build the harness for `describeConformance`. */
export function createMatrixHarness(options: MatrixHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "matrix",
    virtualTime: true,
    async setup(setup) {
      const media = await conformanceMedia();
      const clocked = harnessClock(setup);
      const emulator = await startMatrixEmulator({
        rateLimit: HARNESS_RATE_LIMIT,
        ...clocked.emulator,
        ...options.emulator,
      });
      const adapter = createMatrixAdapter({
        homeserver: emulator.homeserver,
        accessToken: emulator.accessToken,
        timeoutMs: 10_000,
        media: media.policy,
        rateLimit: HARNESS_RATE_LIMIT,
        ...clocked.adapter,
        ...options.adapter,
      });
      return {
        adapter,
        target: { to: DEFAULT_ROOM },
        observe: () => emulator.observe(DEFAULT_ROOM),
        inject: (fault) => emulator.inject(fault),
        rateLimitRefusals: () => emulator.rateLimitRefusals(),
        // An event id as room versions 4+ make them, naming no event of the room.
        unknownMessageId: "$Z3VvZG5pZ2h0LW1vb24tbm8tc3VjaC1ldmVudC0wMDAx",
        teardown: async () => {
          await adapter.close?.();
          await emulator.close();
        },
      };
    },
  };
}
