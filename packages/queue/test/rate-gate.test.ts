/**
 * The shared token buckets: gates built separately (as in separate worker processes, each
 * with its own connection) draw from one bucket in Redis, so together they keep to one rate.
 */
import { systemClock } from "@outbox/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRateGate } from "../src/redis/rate-gate.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

let redis: RedisServer;
const connections: Redis[] = [];

describe.skipIf(redisMissing)(`rate gate ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const connection of connections) connection.disconnect();
    await redis?.stop();
  });

  const gates = (limit: { scope: "target" | "global"; limit: number; intervalMs: number; burst?: number }) =>
    Array.from({ length: 3 }, () => {
      const connection = new Redis(redis.url);
      connections.push(connection);
      return createRateGate(
        connection,
        (rule, to) => `test:${limit.scope}:${rule}:${to ?? "*"}`,
        [limit],
        systemClock,
        {
          margin: 0,
          latencyMs: 0,
        },
      );
    });

  it("three gates together take no more than one bucket allows", async () => {
    // 10/s with a burst of 2: 12 tokens need at least 1 s; three separate buckets would give them in 0.2 s.
    const three = gates({ scope: "global", limit: 10, intervalMs: 1000, burst: 2 });
    const started = performance.now();
    await Promise.all(three.flatMap((gate) => [1, 2, 3, 4].map(() => gate("chat"))));
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("keeps a bucket per target for target limits", async () => {
    const [gate] = gates({ scope: "target", limit: 1, intervalMs: 60_000, burst: 1 });
    const started = performance.now();
    await Promise.all(["a", "b", "c", "d"].map((to) => gate?.(to)));
    // One token each, none waited a minute.
    expect(performance.now() - started).toBeLessThan(30_000);
    const signal = AbortSignal.timeout(200);
    await expect(gate?.("a", signal)).rejects.toThrow();
  });
});
