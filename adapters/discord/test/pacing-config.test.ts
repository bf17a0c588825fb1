import type { Clock } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../src/index.js";
import { DEFAULT_CHANNEL, startDiscordEmulator } from "../src/testing/index.js";

/** A virtual clock that records the pacer's sleeps and returns at once. */
function recordingClock(): Clock & { sleeps: number[] } {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe("createDiscordAdapter: pacing options", () => {
  it("passes `pacing` to the pacer: without the latency allowance a burst of 5 goes unpaced", async () => {
    const emulator = await startDiscordEmulator({ messageBucket: false });
    try {
      const sleepsWith = async (pacing?: { latencyMs: number }) => {
        const clock = recordingClock();
        const adapter = createDiscordAdapter({
          token: emulator.token,
          api: emulator.api,
          clock,
          ...(pacing ? { pacing } : {}),
        });
        for (const text of ["a", "b", "c", "d", "e"])
          expect((await adapter.send({ text }, { to: DEFAULT_CHANNEL })).ok).toBe(true);
        return clock.sleeps.length;
      };
      // Default: the 500 ms allowance lowers the burst of 5 per 5 s to 4.5, so the fifth send waits.
      expect(await sleepsWith()).toBeGreaterThan(0);
      expect(await sleepsWith({ latencyMs: 0 })).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});
