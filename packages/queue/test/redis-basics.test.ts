/**
 * The outbox on a real redis-server, workers in this process: receipts and events through
 * Redis, dead letters, the partition-count check, retention of results.
 */
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type Outbox, type QueuedReceipt } from "../src/index.js";
import { adapterFactories } from "./support/platforms.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

let redis: RedisServer;
let emulator: TelegramEmulator;
let outbox: Outbox;

describe.skipIf(redisMissing)(`outbox on Redis ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
    emulator = await startTelegramEmulator({ chats: [1, 2].map((id) => ({ id })) });
    outbox = await createOutbox({
      adapters: adapterFactories({ telegram: emulator }),
      connection: redis.url,
      partitions: 4,
    });
  });
  afterAll(async () => {
    await outbox?.close();
    await emulator?.close();
    await redis?.stop();
  });

  it("queues in Redis, delivers on a worker, reports receipts and events", async () => {
    expect(outbox.mode).toBe("redis");
    const finished: QueuedReceipt[] = [];
    outbox.on("finished", (receipt) => finished.push(receipt));
    const ids = [];
    for (let i = 0; i < 6; i += 1)
      ids.push((await outbox.enqueue("telegram", { text: `r${i}` }, { to: String((i % 2) + 1) })).id);
    const worker = await outbox.createWorker();
    const receipts = await Promise.all(ids.map((id) => outbox.receipt(id)));
    expect(receipts.map((receipt) => receipt.status)).toEqual(ids.map(() => "delivered"));
    expect(receipts[0]?.receipt?.messages).toHaveLength(1);
    expect(emulator.observe(1).map((message) => message.text)).toEqual(["r0", "r2", "r4"]);
    expect(emulator.observe(2).map((message) => message.text)).toEqual(["r1", "r3", "r5"]);
    await expect.poll(() => finished.length).toBe(6);
    // Finished jobs: a receipt asked for afterwards comes from Redis; the same key queues nothing new.
    expect((await outbox.receipt(ids[0] as string)).status).toBe("delivered");
    const again = await outbox.enqueue("telegram", { text: "r0" }, { to: "1" }, { idempotencyKey: ids[0] });
    expect(again.id).toBe(ids[0]);
    await worker.close();
  });

  it("dead-letters after bounded attempts with backoff, with receipt and reason", async () => {
    const worker = await outbox.createWorker();
    emulator.inject({ kind: "rate-limit", retryAfterMs: 3_600_000, times: 2 });
    const { id } = await outbox.enqueue(
      "telegram",
      { text: "doomed" },
      { to: "2" },
      { attempts: 2, backoffMs: 5 },
    );
    const receipt = await outbox.receipt(id);
    expect(receipt).toMatchObject({ status: "dead", attempts: 2 });
    expect(receipt.reason).toMatch(/gave up after 2 attempts/);
    expect((await outbox.deadLetters()).map((entry) => entry.id)).toContain(id);
    await worker.close();
  });

  it("refuses a process that disagrees on the partition count", async () => {
    await expect(
      createOutbox({
        adapters: adapterFactories({ telegram: emulator }),
        connection: redis.url,
        partitions: 8,
      }),
    ).rejects.toThrow(/runs on 4 partitions in Redis; this process asked for 8/);
  });
});
