import { describe, expect, it } from "vitest";
import type { RateLimit } from "../../src/adapter/types.js";
import { RateLimitedError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";
import { createStrictPlatform } from "./support/strict-platform.js";

const telegramLike: RateLimit[] = [
  { scope: "target", limit: 1, intervalMs: 1_000, burst: 3 },
  { scope: "target", limit: 20, intervalMs: 60_000, match: "^-" },
  { scope: "global", limit: 30, intervalMs: 1_000 },
];

describe("pacing", () => {
  it("spaces concurrent sends to one target (1/s, no burst)", async () => {
    const { adapter, transport, clock } = harness({
      rateLimits: [{ scope: "target", limit: 1, intervalMs: 1_000 }],
    });
    const sends = Array.from({ length: 6 }, (_, i) => adapter.send({ text: `m${i}` }, { to: "a" }));
    await clock.run(Promise.all(sends));
    expect(transport.calls.map((c) => c.at)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it("lets a burst through, then refills", async () => {
    const { adapter, transport, clock } = harness({
      rateLimits: [{ scope: "target", limit: 1, intervalMs: 1_000, burst: 3 }],
    });
    await clock.run(Promise.all(Array.from({ length: 5 }, () => adapter.send({ text: "x" }, { to: "a" }))));
    expect(transport.calls.map((c) => c.at)).toEqual([0, 0, 0, 1_000, 2_000]);
  });

  it("keeps targets independent but under the global limit", async () => {
    const { adapter, transport, clock } = harness({
      rateLimits: [
        { scope: "target", limit: 1, intervalMs: 1_000 },
        { scope: "global", limit: 4, intervalMs: 1_000 },
      ],
    });
    await clock.run(
      Promise.all(Array.from({ length: 8 }, (_, i) => adapter.send({ text: "x" }, { to: `t${i}` }))),
    );
    expect(transport.calls.map((c) => c.at)).toEqual([0, 0, 0, 0, 250, 500, 750, 1_000]);
  });

  it("applies a matched limit only to matching targets (groups: 20/min)", async () => {
    const { adapter, transport, clock } = harness({
      rateLimits: [
        { scope: "target", limit: 1, intervalMs: 1_000, burst: 3 },
        { scope: "target", limit: 20, intervalMs: 60_000, burst: 1, match: "^-" },
      ],
    });
    await clock.run(
      Promise.all([
        ...Array.from({ length: 4 }, () => adapter.send({ text: "g" }, { to: "-100" })),
        ...Array.from({ length: 4 }, () => adapter.send({ text: "d" }, { to: "42" })),
      ]),
    );
    const group = transport.calls.filter((c) => c.op.target.to === "-100").map((c) => c.at);
    const direct = transport.calls.filter((c) => c.op.target.to === "42").map((c) => c.at);
    expect(direct).toEqual([0, 0, 0, 1_000]);
    expect(group).toEqual([0, 3_000, 6_000, 9_000]);
  });

  it("a plan and concurrent sends under Telegram-like limits meet no 429 from a strict platform", async () => {
    const { adapter, transport, clock } = harness({
      rateLimits: telegramLike,
      text: { maxLength: 30, format: "x" },
    });
    const platform = createStrictPlatform(telegramLike, clock);
    transport.behave((op) => {
      platform.admit(op);
      return undefined;
    });
    const long = Array.from({ length: 5 }, (_, i) => `paragraph number ${i}`).join("\n\n");
    const sends = Array.from({ length: 40 }, (_, i) =>
      adapter.send({ text: long }, { to: i % 3 === 0 ? `-g${i % 4}` : `u${i % 7}` }),
    );
    const receipts = await clock.run(Promise.all(sends));
    expect(receipts.every((r) => r.ok)).toBe(true);
    expect(platform.rejected).toBe(0);
    expect(transport.calls).toHaveLength(200);
  });

  it("holds a target the platform reports as exhausted (rate-limit headers)", async () => {
    const { send, transport } = harness({ text: { maxLength: 10, format: "x" } });
    let next = 0;
    transport.behave(() => ({ id: `m${++next}`, rateLimit: { remaining: next % 2, resetAfterMs: 2_000 } }));
    await send({ text: "first\n\nsecond\n\nthird\n\nfourth" }, { to: "z" });
    expect(transport.calls.map((c) => c.at)).toEqual([0, 0, 2_000, 2_000]);
  });

  it("a 429 holds the target for other sends too, even without declared limits", async () => {
    const { adapter, transport, clock } = harness();
    let late: Promise<unknown> = Promise.resolve();
    transport.behave((_op, call) => {
      if (call === 1) {
        // Sent a millisecond after the 429 came back (not while its request was in flight,
        // where which of the two reaches the pacer first is a matter of microtask turns).
        late = clock.sleep(1).then(() => adapter.send({ text: "b" }, { to: "x" }));
        throw new RateLimitedError("slow", 5_000);
      }
      return undefined;
    });
    await clock.run(adapter.send({ text: "a" }, { to: "x" }));
    await clock.run(late);
    expect(transport.calls.map((c) => c.at)).toEqual([0, 5_000, 5_000]);
    await clock.run(adapter.send({ text: "c" }, { to: "y" }));
    expect(transport.calls.at(-1)?.at).toBe(5_000);
  });
});
