import { createManualClock } from "@outbox/core";
import { createSlackAdapter } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { describe, expect, it } from "vitest";

describe("createSlackAdapter: pacing options", () => {
  it("passes `pacing` to the pacer: without the latency allowance a burst of 4 goes unpaced", async () => {
    const emulator = await startSlackEmulator({ channels: [{ id: "C1" }], rateLimits: false });
    try {
      /** Virtual milliseconds four sends to one channel waited for the pacer. */
      const pacedMs = async (pacing?: { latencyMs: number }) => {
        const clock = createManualClock();
        const { token, slackApiUrl } = emulator;
        const adapter = createSlackAdapter({ token, slackApiUrl, clock, ...(pacing ? { pacing } : {}) });
        for (const text of ["a", "b", "c", "d"])
          expect((await clock.run(adapter.send({ text }, { to: "C1" }))).ok).toBe(true);
        return clock.now();
      };
      // Default: the burst of 4 less the 50 ms the first answer leaves held back, so the fourth
      // send waits.
      expect(await pacedMs()).toBeGreaterThan(0);
      expect(await pacedMs({ latencyMs: 0 })).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});
