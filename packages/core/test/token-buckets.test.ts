import { describe, expect, it } from "vitest";
import { createTokenBuckets } from "../src/adapter/token-buckets.js";

describe("createTokenBuckets", () => {
  it("takes from every bucket of a call, refuses with the wait until all hold a token, and refills", () => {
    let now = 0;
    const buckets = createTokenBuckets(() => now);
    const chat = { key: "chat:1", capacity: 2, perMs: 1 / 1000 };
    const global = { key: "global", capacity: 3, perMs: 1 / 100 };
    expect(buckets.take([chat, global])).toBeUndefined();
    expect(buckets.take([chat, global])).toBeUndefined();
    expect(buckets.take([chat, global])).toBe(1000);
    expect(buckets.take([global])).toBeUndefined();
    expect(buckets.take([global])).toBe(100);
    expect(buckets.refusals()).toBe(2);
    now = 500;
    expect(buckets.take([chat], 400)).toBe(500);
    expect(buckets.take([chat], 500)).toBeUndefined();
    expect(buckets.take([chat], 0)).toBeCloseTo(1500);
  });
});

describe("createTokenBuckets: a call that costs more than one token", () => {
  it("takes its cost from every bucket, waits for all of it, and a cost over capacity leaves debt", () => {
    let now = 0;
    const buckets = createTokenBuckets(() => now);
    const bucket = { key: "uploads", capacity: 4, perMs: 1 / 100 };
    expect(buckets.take([bucket], 0, 3)).toBeUndefined();
    // One token left: a second upload of cost 3 waits for two more.
    expect(buckets.take([bucket], 0, 3)).toBe(200);
    expect(buckets.take([bucket])).toBeUndefined();
    now = 400;
    // Full again (4 tokens): a cost of 6 goes at once and leaves the bucket 2 in debt.
    expect(buckets.take([bucket], 0, 6)).toBeUndefined();
    expect(buckets.take([bucket])).toBe(300);
    expect(buckets.refusals()).toBe(2);
  });
});
