import { createManualClock } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../src/index.js";
import { DEFAULT_CHANNEL, startDiscordEmulator } from "../src/testing/index.js";

describe("createDiscordAdapter: pacing options", () => {
  it("passes `pacing` to the pacer: without the latency allowance 5 sends in a window go unpaced", async () => {
    const emulator = await startDiscordEmulator({ messageBucket: false });
    try {
      /** Virtual milliseconds five sends to one channel waited for the pacer. */
      const pacedMs = async (pacing?: { latencyMs: number }) => {
        const clock = createManualClock();
        const { token, api } = emulator;
        const adapter = createDiscordAdapter({ token, api, clock, ...(pacing ? { pacing } : {}) });
        for (const text of ["a", "b", "c", "d", "e"])
          expect((await clock.run(adapter.send({ text }, { to: DEFAULT_CHANNEL }))).ok).toBe(true);
        await adapter.close?.();
        return clock.now();
      };
      // Default: the 500 ms allowance lowers 5 per 5 s to a burst of 4.5, so the fifth send waits.
      expect(await pacedMs()).toBeGreaterThan(0);
      expect(await pacedMs({ latencyMs: 0 })).toBe(0);
    } finally {
      await emulator.close();
    }
  });
});
