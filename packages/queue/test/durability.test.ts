/**
 * What Redis holds and keeps: a Redis restarted mid-run (AOF, fsync always) loses no job and
 * duplicates none; a 50 MB local file is queued as its path, never as bytes, and the worker
 * loads it under its own media policy.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutbox, type QueuedReceipt } from "../src/index.js";
import { adapterFactories } from "./support/platforms.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

let redis: RedisServer;
let emulator: TelegramEmulator;
const CHATS = 5;

describe.skipIf(redisMissing)(`durability ${redisMissing ?? ""}`, () => {
  beforeEach(async () => {
    redis = await startRedis({ aof: true });
    emulator = await startTelegramEmulator({
      chats: Array.from({ length: CHATS }, (_, i) => ({ id: i + 1 })),
    });
  });
  afterEach(async () => {
    await emulator?.close();
    await redis?.stop();
  });

  it("loses no job and duplicates none when Redis restarts mid-run", async () => {
    const outbox = await createOutbox({
      adapters: adapterFactories({ telegram: emulator }),
      connection: redis.url,
      partitions: 4,
    });
    const finished: QueuedReceipt[] = [];
    outbox.on("finished", (receipt) => finished.push(receipt));
    const text = (chat: number, n: number) => `chat ${chat} #${n}`;
    const ids: string[] = [];
    const enqueue = async (from: number, to: number) => {
      for (let n = from; n < to; n += 1)
        for (let chat = 1; chat <= CHATS; chat += 1)
          ids.push((await outbox.enqueue("telegram", { text: text(chat, n) }, { to: String(chat) })).id);
    };
    await enqueue(0, 8);
    const worker = await outbox.createWorker({ lockDurationMs: 3000, stalledIntervalMs: 500 });
    await expect.poll(() => finished.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(5);
    const restarted = redis.restart();
    await enqueue(8, 12); // queued while the server is down: ioredis holds the commands until it is back
    await restarted;
    const receipts = await Promise.all(ids.map((id) => outbox.receipt(id)));
    expect(receipts.filter((receipt) => receipt.status !== "delivered")).toEqual([]);
    for (let chat = 1; chat <= CHATS; chat += 1)
      expect(emulator.observe(chat).map((message) => message.text)).toEqual(
        Array.from({ length: 12 }, (_, n) => text(chat, n)),
      );
    await worker.close();
    await outbox.close();
  });

  it("queues a 50 MB file as its path; the worker loads it under its own policy", async () => {
    const dir = mkdtempSync(join(tmpdir(), "outbox-queue-media-"));
    const file = join(dir, "archive.bin");
    writeFileSync(file, "");
    truncateSync(file, 50_000_000);
    const client = new Redis(redis.url);
    try {
      const outbox = await createOutbox({
        adapters: adapterFactories({ telegram: emulator, localRoots: [dir] }),
        connection: redis.url,
        prefix: "media",
        partitions: 2,
      });
      const memory = async () => Number(/used_memory:(\d+)/.exec(await client.info("memory"))?.[1]);
      const before = await memory();
      const { id } = await outbox.enqueue("telegram", { text: "the archive", mediaUrl: file }, { to: "1" });
      const after = await memory();
      let stored = 0;
      for (const key of await client.keys("media:*")) stored += (await client.memory("USAGE", key)) ?? 0;
      expect(stored).toBeLessThan(16_384);
      expect(after - before).toBeLessThan(1_000_000);
      const worker = await outbox.createWorker();
      const receipt = await outbox.receipt(id);
      expect(receipt.status).toBe("delivered");
      expect(emulator.observe(1)).toMatchObject([
        { kind: "document", bytes: 50_000_000, caption: "the archive" },
      ]);
      expect(await memory()).toBeLessThan(before + 5_000_000);
      await worker.close();
      await outbox.close();
    } finally {
      client.disconnect();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
