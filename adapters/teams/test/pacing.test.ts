/**
 * The adapter's pacer keeps to all four of the connector's per-conversation windows, on one
 * virtual clock shared with the emulator's buckets: the assertion is on that clock's time,
 * not on how fast the machine answered.
 */
import { createManualClock, type RateLimit } from "@outbox/core";
import { Agent, type Dispatcher } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createTeamsAdapter, TEAMS_RATE_LIMITS } from "../src/index.js";
import { emulatorConfig, startTeamsEmulator, type TeamsEmulator } from "../src/testing/index.js";

const CHAT = "a:1pacing";
let emulator: TeamsEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** Send `count` replies one after another to one conversation; the virtual time each was answered. */
async function sendAll(count: number, rateLimits: RateLimit[]) {
  const clock = createManualClock();
  emulator = await startTeamsEmulator({ conversations: [{ id: CHAT }], now: clock.now });
  const adapter = createTeamsAdapter({
    ...emulatorConfig(emulator),
    clock,
    rateLimits,
    // Exactly the declared rates, so the floor is exact: no margin, no latency held back.
    pacing: { margin: 0, latencyMs: 0 },
    retry: { maxRetries: 0 },
  });
  const answeredAt: number[] = [];
  let failed = 0;
  for (let n = 0; n < count; n++) {
    const receipt = await clock.run(adapter.send({ text: `m${n}` }, { to: CHAT }));
    if (!receipt.ok) failed += 1;
    answeredAt.push(clock.now());
  }
  await adapter.close?.();
  return { answeredAt, failed, refusals: emulator.rateLimitRefusals() };
}

describe("Teams pacing", () => {
  it("sends 120 replies to one conversation with no 429, the 60-in-30-s window setting the pace", async () => {
    const { answeredAt, failed, refusals } = await sendAll(120, [...TEAMS_RATE_LIMITS]);
    expect(refusals).toBe(0);
    expect(failed).toBe(0);
    // 7 a second and 8 in 2 s alone would allow the 120th at 28 s; 60 in 30 s holds it to 30 s.
    expect(answeredAt[119]).toBeGreaterThanOrEqual(30_000);
    expect(answeredAt[119]).toBeLessThan(30_500);
    // The burst: 7 at once (7 a second), the 8th a seventh of a second later.
    expect(answeredAt.slice(0, 7)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(answeredAt[7]).toBeCloseTo(1000 / 7, 0);
  });

  it("draws 429s when the pacer knows only the short windows (the test's teeth)", async () => {
    const short = TEAMS_RATE_LIMITS.filter((rule) => rule.intervalMs <= 2000);
    const { refusals } = await sendAll(120, short);
    expect(refusals).toBeGreaterThan(0);
  });
});

/** A real undici Agent whose token requests start `ms` later: a slow identity platform. */
function slowTokens(ms: number): Dispatcher {
  return new Agent().compose((dispatch) => (options, handler) => {
    if (!options.path.includes("/oauth2/")) return dispatch(options, handler);
    setTimeout(() => dispatch(options, handler), ms);
    return true;
  });
}

describe("Teams pacing with a slow token", () => {
  // On the real clock: the emulator's buckets start at the first request it sees, as the
  // connector's do, which a virtual clock jumping over requests in flight would not show.
  it("a burst on a cold adapter draws no 429 when the token takes 1.5 s", async () => {
    emulator = await startTeamsEmulator({ conversations: [{ id: CHAT }] });
    const dispatcher = slowTokens(1500);
    const adapter = createTeamsAdapter({ ...emulatorConfig(emulator), dispatcher, retry: { maxRetries: 0 } });
    try {
      const receipts = await Promise.all(
        Array.from({ length: 12 }, (_, n) => adapter.send({ text: `m${n}` }, { to: CHAT })),
      );
      expect(receipts.flatMap((r) => r.failures.map((f) => f.error.message))).toEqual([]);
      expect(emulator.rateLimitRefusals()).toBe(0);
      expect(emulator.tokensIssued()).toBe(1);
    } finally {
      await adapter.close?.();
      await dispatcher.close();
    }
  });
});
