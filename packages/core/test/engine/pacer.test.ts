import { describe, expect, it } from "vitest";
import type { Clock, RateLimit } from "../../src/adapter/types.js";
import { createManualClock, type ManualClock } from "../../src/engine/clock.js";
import { createPacer, type Pacer, type PacerTicket } from "../../src/engine/pacer.js";

const telegramLike: RateLimit[] = [
  { scope: "target", limit: 1, intervalMs: 1_000, burst: 3 },
  { scope: "target", limit: 20, intervalMs: 60_000, match: "^-" },
  { scope: "global", limit: 30, intervalMs: 1_000 },
];

/** A manual clock that counts the sleeps asked of it. */
function countingClock() {
  const clock = createManualClock();
  let sleeps = 0;
  const counted: Clock = {
    now: () => clock.now(),
    sleep: (ms, signal) => {
      sleeps += 1;
      return clock.sleep(ms, signal);
    },
  };
  return { clock, counted, sleeps: () => sleeps };
}

/** Acquire for every target in order; resolves with each release as [to, index, time]. */
async function releaseAll(limits: RateLimit[], targets: string[], margin = 0) {
  const { clock, counted, sleeps } = countingClock();
  const pacer = createPacer(limits, counted, { margin, latencyMs: 0 });
  const released: Array<[string, number, number]> = [];
  await clock.run(
    Promise.all(
      targets.map((to, i) => pacer.acquire(to).then(() => void released.push([to, i, clock.now()]))),
    ),
  );
  return { released, sleeps: sleeps(), end: clock.now() };
}

/** The wait between two operations to a fresh target `to`. */
async function gapBetweenTwo(pacer: Pacer, clock: ManualClock, to: string): Promise<number> {
  await clock.run(pacer.acquire(to));
  const start = clock.now();
  await clock.run(pacer.acquire(to));
  return clock.now() - start;
}

const spread = (n: number, chats: number, prefix = "") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i % chats}`);

describe("pacer", () => {
  it("takes as many tokens as a limit declares requests for the kind of send (an upload and a post)", async () => {
    const clock = createManualClock();
    const limits: RateLimit[] = [{ scope: "target", limit: 10, intervalMs: 1_000, requests: { media: 2 } }];
    const pacer = createPacer(limits, clock, { margin: 0, latencyMs: 0 });
    const released: Array<[string, number]> = [];
    const kinds = ["media", "media", "media", "media", "media", "media", "text"] as const;
    await clock.run(
      Promise.all(
        kinds.map((kind) =>
          pacer.acquire("chat", undefined, false, kind).then(() => released.push([kind, clock.now()])),
        ),
      ),
    );
    // Ten tokens: five media sends at once; the sixth waits for two tokens (200 ms), the text for one more.
    expect(released).toEqual([
      ["media", 0],
      ["media", 0],
      ["media", 0],
      ["media", 0],
      ["media", 0],
      ["media", 200],
      ["text", 300],
    ]);
  });

  it("costs O(n) timer sleeps for n queued operations, whatever the queue length", async () => {
    const small = await releaseAll(telegramLike, spread(250, 50));
    const large = await releaseAll(telegramLike, spread(1_000, 50));
    const groups = await releaseAll(telegramLike, spread(1_000, 50, "-"));
    expect(large.released).toHaveLength(1_000);
    // Each timer that fires releases or moves forward one waiter (a poller took 456,000 here).
    expect(large.sleeps).toBeLessThanOrEqual(2 * 1_000);
    expect(groups.sleeps).toBeLessThanOrEqual(2 * 1_000);
    expect(large.sleeps / small.sleeps).toBeLessThan(4 * 1.25);
    // And it is still as fast as the limits allow: 30/s overall after a burst of 30.
    expect(large.end).toBeLessThanOrEqual(Math.ceil(((1_000 - 30) / 30) * 1_000) + 1);
  });

  it("releases the waiters of one target in arrival order", async () => {
    const { released } = await releaseAll([{ scope: "target", limit: 2, intervalMs: 1_000 }], spread(10, 1));
    expect(released.map(([, i]) => i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(released.map(([, , at]) => at)).toEqual([
      0, 0, 500, 1_000, 1_500, 2_000, 2_500, 3_000, 3_500, 4_000,
    ]);
  });

  it("lines targets up for global tokens in the order they became ready", async () => {
    const limits: RateLimit[] = [
      { scope: "target", limit: 1, intervalMs: 1_000 },
      { scope: "global", limit: 2, intervalMs: 1_000 },
    ];
    const { released } = await releaseAll(limits, ["a", "b", "c", "a", "b", "c"]);
    expect(released.map(([to, , at]) => `${to}@${at}`)).toEqual([
      "a@0",
      "b@0",
      "c@500",
      "a@1000",
      "b@1500",
      "c@2000",
    ]);
  });

  it("stays a safety margin below the declared rate", async () => {
    const { released } = await releaseAll(
      [{ scope: "target", limit: 1, intervalMs: 1_000 }],
      spread(3, 1),
      0.1,
    );
    expect(released.map(([, , at]) => at)).toEqual([0, 1_112, 2_224]);
    expect(() => createPacer([], createManualClock(), { margin: 1 })).toThrow(/pacing\.margin/);
  });

  it("keeps a latency allowance out of each burst", async () => {
    const clock = createManualClock();
    const pacer = createPacer([{ scope: "global", limit: 4, intervalMs: 1_000 }], clock, {
      margin: 0,
      latencyMs: 500,
    });
    const times: number[] = [];
    await clock.run(
      Promise.all(Array.from({ length: 4 }, () => pacer.acquire("a").then(() => times.push(clock.now())))),
    );
    // A burst of 4 less the 2 tokens refilled in 500 ms.
    expect(times).toEqual([0, 0, 250, 500]);
  });

  it("a 429 for one chat holds that chat only and leaves its group bucket full", async () => {
    const clock = createManualClock();
    const pacer = createPacer(telegramLike, clock, { margin: 0, latencyMs: 0 });
    const times: Record<string, number[]> = { "-1": [], b: [] };
    await clock.run(pacer.acquire("-1"));
    times["-1"]?.push(clock.now());
    pacer.limited("-1", 5_000);
    const group = (async () => {
      for (let i = 0; i < 4; i += 1) {
        await pacer.acquire("-1");
        times["-1"]?.push(clock.now());
      }
    })();
    const other = (async () => {
      for (let i = 0; i < 2; i += 1) {
        await pacer.acquire("b");
        times.b?.push(clock.now());
      }
    })();
    await clock.run(Promise.all([group, other]));
    expect(times.b).toEqual([0, 0]);
    // Held 5 s, then the chat's own burst (the old pacer emptied the 20/min group bucket: one per 3 s).
    expect(times["-1"]?.slice(0, 4)).toEqual([0, 5_000, 5_000, 5_000]);
    expect(times["-1"]?.[4]).toBeGreaterThan(6_000);
    expect(times["-1"]?.[4]).toBeLessThan(6_200);
  });

  it("learns from a 429: that scope's rate drops 10% and recovers over recoveryMs", async () => {
    const clock = createManualClock();
    const limits: RateLimit[] = [{ scope: "target", limit: 1, intervalMs: 1_000 }];
    const pacer = createPacer(limits, clock, { margin: 0, latencyMs: 0, recoveryMs: 100_000 });
    const gaps = (to: string) => gapBetweenTwo(pacer, clock, to);
    expect(await gaps("a")).toBe(1_000);
    pacer.limited("a", 0);
    expect(await gaps("c")).toBe(1_112);
    pacer.limited("a", 0);
    expect(await gaps("d")).toBeGreaterThan(1_200);
    await clock.advance(200_000);
    expect(await gaps("e")).toBe(1_000);
  });

  it("429s answered together learn once, whatever their targets: one within the hold lowers nothing more", async () => {
    const clock = createManualClock();
    const limits: RateLimit[] = [{ scope: "target", limit: 1, intervalMs: 100 }];
    const pacer = createPacer(limits, clock, { margin: 0, latencyMs: 0, recoveryMs: 10_000_000 });
    const gap = (to: string) => gapBetweenTwo(pacer, clock, to);
    // One stall: twelve chats answered 429 at once.
    for (let i = 0; i < 12; i++) pacer.limited(`chat${i}`, 1_000);
    // 10% slower once (100 ms → 111), not 0.9^12 (the floor of half: 200 ms).
    const once = await gap("a");
    expect(once).toBeGreaterThanOrEqual(110);
    expect(once).toBeLessThan(115);
    await clock.advance(1_000);
    pacer.limited("chat0", 500); // after the hold: a new signal
    expect(await gap("b")).toBeGreaterThan(120);
  });

  it("a global 429 holds every target; a target 429 holds only its own", async () => {
    const clock = createManualClock();
    const pacer = createPacer([], clock);
    pacer.limited("a", 3_000);
    await clock.run(pacer.acquire("b"));
    expect(clock.now()).toBe(0);
    pacer.limited("a", 2_000, "global");
    await clock.run(pacer.acquire("b"));
    expect(clock.now()).toBe(2_000);
    await clock.run(pacer.acquire("a"));
    expect(clock.now()).toBe(3_000);
  });

  it("take releases at once only what acquire would release at once, and takes its tokens", async () => {
    const clock = createManualClock();
    const pacer = createPacer(
      [
        { scope: "target", limit: 1, intervalMs: 1_000, burst: 2 },
        { scope: "global", limit: 3, intervalMs: 10_000 },
      ],
      clock,
      { margin: 0, latencyMs: 0 },
    );
    expect(pacer.take("a")).toEqual(expect.objectContaining({ releasedAt: 0 }));
    expect(pacer.take("a")).toBeDefined();
    // Its burst of two is spent: nothing taken, and an acquire waits its refill.
    expect(pacer.take("a")).toBeUndefined();
    const waiting = pacer.acquire("a");
    await clock.advance(999);
    // One token back for `a`, but a waiter is first in line.
    expect(pacer.take("a")).toBeUndefined();
    expect((await clock.run(waiting)).releasedAt).toBe(1_000);
    // The global limit's three tokens are spent until it refills (a token in 3.3 s).
    expect(pacer.take("b")).toBeUndefined();
    pacer.pause("c", 5_000);
    await clock.advance(3_000);
    expect(pacer.take("c")).toBeUndefined();
    expect(pacer.take("b")).toBeDefined();
  });

  it("a retry goes first in its target's queue; an aborted waiter leaves it", async () => {
    const clock = createManualClock();
    const pacer = createPacer([{ scope: "target", limit: 1, intervalMs: 1_000 }], clock, {
      margin: 0,
      latencyMs: 0,
    });
    const order: string[] = [];
    const abort = new AbortController();
    await clock.run(pacer.acquire("a"));
    const queued = [
      pacer.acquire("a").then(() => order.push("first")),
      pacer.acquire("a", abort.signal).then(
        () => order.push("aborted?"),
        () => order.push("aborted"),
      ),
      pacer.acquire("a").then(() => order.push("second")),
      pacer.acquire("a", undefined, true).then(() => order.push("retry")),
    ];
    abort.abort();
    await clock.run(Promise.all(queued));
    expect(order).toEqual(["aborted", "retry", "first", "second"]);
    expect(clock.now()).toBe(3_000);
  });

  it("gives a bucket its held-back burst once the operation that opened it is answered", async () => {
    const clock = createManualClock();
    const pacer = createPacer([{ scope: "global", limit: 10, intervalMs: 1_000 }], clock, { margin: 0 });
    const times: number[] = [];
    const tickets = Array.from({ length: 12 }, () =>
      pacer.acquire("a").then((ticket) => {
        times.push(ticket.releasedAt);
        return ticket;
      }),
    );
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    await settle();
    // Nothing answered yet: the default 500 ms keeps 5 of the burst of 10.
    expect(times).toEqual([0, 0, 0, 0, 0]);
    await clock.advance(20);
    // Answering the others changes nothing: only the first (the bucket's opener) tells.
    for (const ticket of (await Promise.all(tickets.slice(1, 5))) as PacerTicket[]) pacer.answered(ticket);
    await settle();
    expect(times).toHaveLength(5);
    // Answered 20 ms after release: 50 ms (the least) is held back, a burst of 9.5; the 4.5
    // tokens given back (plus 0.2 refilled) release four waiters now, not on their timers.
    pacer.answered((await tickets[0]) as PacerTicket);
    await settle();
    expect(times).toEqual([0, 0, 0, 0, 0, 20, 20, 20, 20]);
    await clock.run(Promise.all(tickets));
    expect(times.slice(9)).toEqual([50, 150, 250]);
    // Full again after a quiet spell, the bucket is opened anew: the whole allowance held back.
    await clock.advance(10_000);
    const mark = clock.now();
    const again: number[] = [];
    const burst = Array.from({ length: 7 }, () =>
      pacer.acquire("a").then((t) => void again.push(t.releasedAt)),
    );
    await settle();
    expect(again).toEqual([mark, mark, mark, mark, mark]);
    await clock.run(Promise.all(burst));
  });

  it("a slow opener gives back only what its own latency allows; an unanswered one nothing", async () => {
    const clock = createManualClock();
    const limits: RateLimit[] = [{ scope: "target", limit: 10, intervalMs: 1_000 }];
    const pacer = createPacer(limits, clock, { margin: 0 });
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    const released = (to: string, n: number) => {
      const times: number[] = [];
      const all = Array.from({ length: n }, () =>
        pacer.acquire(to).then((ticket) => {
          times.push(ticket.releasedAt);
          return ticket;
        }),
      );
      return { times, all };
    };
    const slow = released("slow", 9);
    const never = released("never", 9);
    await settle();
    await clock.advance(300);
    pacer.answered((await slow.all[0]) as PacerTicket);
    await settle();
    // "slow": answered 300 ms after release holds back 3 tokens (of the 5 held), so by 300 ms
    // it released 5 at once + 3 refilled + 2 given back. "never": 5 + 3 refilled.
    expect(slow.times).toHaveLength(9);
    expect(slow.times.slice(5)).toEqual([100, 200, 300, 300]);
    expect(never.times).toEqual([0, 0, 0, 0, 0, 100, 200, 300]);
    await clock.run(Promise.all([...slow.all, ...never.all]));
  });

  it("keeps the whole allowance when minLatencyMs equals latencyMs", async () => {
    const clock = createManualClock();
    const pacer = createPacer([{ scope: "global", limit: 10, intervalMs: 1_000 }], clock, {
      margin: 0,
      latencyMs: 300,
      minLatencyMs: 300,
    });
    const first = await clock.run(pacer.acquire("a"));
    pacer.answered(first);
    const times: number[] = [];
    await clock.run(
      Promise.all(
        Array.from({ length: 7 }, () => pacer.acquire("a").then((t) => void times.push(t.releasedAt))),
      ),
    );
    expect(times).toEqual([0, 0, 0, 0, 0, 0, 100]);
  });
});
