import type { Clock } from "@outbox/core";
import { createSlackAdapter } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { describe, expect, it } from "vitest";

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

describe("createSlackAdapter: pacing options", () => {
  it("passes `pacing` to the pacer: without the latency allowance a burst of 3 goes unpaced", async () => {
    const emulator = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
    try {
      const sleepsWith = async (pacing?: { latencyMs: number }) => {
        const clock = recordingClock();
        const adapter = createSlackAdapter({
          token: emulator.token,
          slackApiUrl: emulator.slackApiUrl,
          clock,
          ...(pacing ? { pacing } : {}),
        });
        for (const text of ["a", "b", "c"])
          expect((await adapter.send({ text }, { to: "C1" })).ok).toBe(true);
        return clock.sleeps.length;
      };
      // Default: the 500 ms allowance lowers the burst of 3 to 2.5, so the third send waits.
      expect(await sleepsWith()).toBeGreaterThan(0);
      expect(await sleepsWith({ latencyMs: 0 })).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});
