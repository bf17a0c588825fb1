/**
 * The shared token buckets: gates built separately (as in separate worker processes, each
 * with its own connection) draw from one bucket in Redis, so together they keep to one rate;
 * a wait is one round trip; the latency allowance comes back with the first answer; a
 * worker's gate keeps the pacing its adapter was built with.
 */
import { type Clock, systemClock } from "@outbox/core";
import { createTelegramAdapter } from "@outbox/telegram";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox } from "../src/index.js";
import { createRateGate, type LatencyWindow, latencyWindow } from "../src/redis/rate-gate.js";
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

  /** A clock whose sleeps record what they were asked and end at once, its time set by hand. */
  const recording = () => {
    const slept: number[] = [];
    let time = 0;
    const clock: Clock = {
      now: () => time,
      sleep: async (ms) => void slept.push(ms),
    };
    const at = (ms: number): void => {
      time = ms;
    };
    return { clock, slept, at };
  };
  const evalCalls = async (connection: Redis): Promise<number> =>
    Number(/cmdstat_eval:calls=(\d+)/.exec(await connection.info("commandstats"))?.[1] ?? 0);

  it("reserves a token that is not there yet: one round trip, then a wait until it falls due", async () => {
    const connection = new Redis(redis.url);
    connections.push(connection);
    const { clock, slept } = recording();
    const limit = { scope: "target", limit: 1, intervalMs: 1000, burst: 1 } as const;
    const gate = createRateGate(connection, (rule, to) => `reserve:${rule}:${to}`, [limit], clock, {
      margin: 0,
      latencyMs: 0,
    });
    const before = await evalCalls(connection);
    for (let n = 0; n < 3; n += 1) await gate("chat");
    // The second token falls due a second after the first, the third a second later.
    expect(slept).toHaveLength(2);
    expect(slept[0]).toBeGreaterThan(900);
    expect((slept[1] as number) - (slept[0] as number)).toBeGreaterThan(900);
    // Three takes, no second asking (INFO's own call is not an EVAL).
    expect((await evalCalls(connection)) - before).toBe(3);
  });

  it("gives back the latency allowance the first answer shows was not needed", async () => {
    const connection = new Redis(redis.url);
    connections.push(connection);
    const limit = { scope: "target", limit: 1, intervalMs: 1000, burst: 3 } as const;
    /** The third take's wait, the first call answered after `first` ms, the second after `second`. */
    const waitOfThird = async (
      to: string,
      first: number | undefined,
      { second, latency = latencyWindow() }: { second?: number; latency?: LatencyWindow } = {},
    ): Promise<number> => {
      const { clock, slept, at } = recording();
      const pacing = { margin: 0, latencyMs: 500, minLatencyMs: 20 };
      const gate = createRateGate(
        connection,
        (rule, target) => `give:${rule}:${target}`,
        [limit],
        clock,
        pacing,
        latency,
      );
      const answered = await gate(to);
      if (first !== undefined) {
        at(first);
        answered?.();
      }
      const answeredSecond = await gate(to);
      if (second !== undefined) {
        at((first ?? 0) + second);
        answeredSecond?.();
      }
      await gate(to);
      return slept[0] ?? 0;
    };
    // Held back: 2.5 of the burst of 3 until an answer, so the third waits about half a second.
    expect(await waitOfThird("held", undefined)).toBeGreaterThan(300);
    // Answered 30 ms after the take: all but 32 ms (30 to a power of two) of it comes back.
    expect(await waitOfThird("given", 30)).toBeLessThanOrEqual(32);
    // Another call of the platform took 300 ms to answer lately: that much stays held back.
    const slow = latencyWindow();
    slow.note(300);
    expect(await waitOfThird("slow", 30, { latency: slow })).toBeGreaterThan(200);
    // The chat's own second call took 300 ms: as much is taken back.
    expect(await waitOfThird("later", 30, { second: 300 })).toBeGreaterThan(200);
  });

  it("keeps the pacing the worker's adapter was built with", async () => {
    const emulator = await startTelegramEmulator({ chats: [{ id: 1 }] });
    const outbox = await createOutbox({
      adapters: {
        // No latency allowance: the chat's whole burst of 3 is there from the start.
        telegram: (services) =>
          createTelegramAdapter({
            ...emulator,
            ...services,
            pacing: { ...services.pacing, latencyMs: 0 },
          }),
      },
      connection: redis.url,
      prefix: "paced",
      partitions: 1,
    });
    const worker = await outbox.createWorker();
    try {
      const { id } = await outbox.enqueue("telegram", { text: "one" }, { to: "1" });
      expect((await outbox.receipt(id)).status).toBe("delivered");
      const connection = new Redis(redis.url);
      connections.push(connection);
      // Rule 0 is Telegram's 1/s per chat, burst 3: one taken of 3, none held back.
      const bucket = await connection.hgetall("paced:_:rate:telegram:0:1");
      expect(Number(bucket.cap)).toBe(3);
      expect(Number(bucket.tokens)).toBe(2);
    } finally {
      await worker.close();
      await outbox.close();
      await emulator.close();
    }
  });
});
