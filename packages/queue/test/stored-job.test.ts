/**
 * How a queued job is stored in Redis: compact (one-letter names, a UUID key in 22
 * characters, no per-job removal options), read back whole, and jobs the previous release
 * queued (long names, a 40-hex-digit job id, removal options in the job) still delivered by
 * this release's worker, from the partition and from a paused account's parked list; and an
 * outbox the previous release started keeps spreading targets over its partitions as it did.
 */
import { createHash } from "node:crypto";
import { createTelegramAdapter } from "@outbox/telegram";
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type Outbox } from "../src/index.js";
import type { JobData } from "../src/job.js";
import { jobIdOf, keysOf, partitionOf } from "../src/redis/keys.js";
import { readJob, storeJob } from "../src/redis/stored-job.js";
import { createTurns } from "../src/redis/turns.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

describe("a job as Redis stores it", () => {
  it.each<[string, JobData]>([
    [
      "a text reply with a UUID key",
      {
        platform: "telegram",
        account: "bot-7",
        payload: { text: "Hi **there**" },
        target: { to: "42" },
        key: "0f8e2c4a-9b1d-4e3f-a2c5-7d6b8e9f0a1b",
      },
    ],
    [
      "everything set",
      {
        platform: "slack",
        payload: { text: "caption", media: [{ mimeType: "application/pdf", filePath: "/srv/report.pdf" }] },
        target: { to: "C1", thread: "1700000000.000100" },
        key: "order-17:reply",
        replyMode: "first",
        attempts: 5,
        backoffMs: 250,
        trace: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      },
    ],
    [
      "a payload without text and a key that is almost a UUID",
      {
        platform: "telegram",
        payload: { media: [{ mimeType: "image/png", sourceUrl: "https://example.com/a.png" }] },
        target: { to: "42" },
        key: "0F8E2C4A-9B1D-4E3F-A2C5-7D6B8E9F0A1B",
      },
    ],
  ])("reads back %s whole", (_, job) => {
    const stored = JSON.parse(JSON.stringify(storeJob(job)));
    expect(readJob(stored)).toEqual(job);
  });

  it("is shorter than the long names the previous release stored", () => {
    const job: JobData = {
      platform: "telegram",
      account: "bot72",
      payload: { text: "Reply **0** of bot 72: some _text_ and `code`." },
      target: { to: "73" },
      key: "d06fd303-694c-4fe2-9cb4-2e088196cdde",
    };
    expect(JSON.stringify(storeJob(job))).toBe(
      '{"p":"telegram","a":"bot72","m":"Reply **0** of bot 72: some _text_ and `code`.","t":"73","u":"0G_TA2lMT-KctC4IgZbN3g"}',
    );
    expect(JSON.stringify(storeJob(job)).length).toBeLessThan(JSON.stringify(job).length - 50);
  });
});

/** The previous release's job id: 40 hex digits of the key's SHA-256. */
const previousJobId = (key: string): string =>
  `j${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;

let redis: RedisServer;
let client: Redis;
let emulator: TelegramEmulator;

describe.skipIf(redisMissing)(`jobs queued by the previous release ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    emulator = await startTelegramEmulator({ chats: [{ id: 5 }, { id: 6 }] });
  });
  afterAll(async () => {
    client?.disconnect();
    await emulator?.close();
    await redis?.stop();
  });

  it("stores a new job compactly and removes it once delivered", async () => {
    const outbox = await open("compact");
    try {
      const { id } = await outbox.enqueue("telegram", { text: "new" }, { to: "5" }, { account: "bot-a" });
      const partition = partitionOf("telegram@bot-a", "5", PARTITIONS);
      const hash = `compact:${keysOf("compact").queue(partition)}:${jobIdOf(id)}`;
      expect(JSON.parse((await client.hget(hash, "data")) as string)).toEqual({
        p: "telegram",
        a: "bot-a",
        m: "new",
        t: "5",
        u: expect.any(String),
      });
      expect(JSON.parse((await client.hget(hash, "opts")) as string)).not.toHaveProperty("removeOnComplete");
      const worker = await outbox.createWorker();
      expect((await outbox.receipt(id)).status).toBe("delivered");
      await worker.close();
      // Removed by the worker's own option: nothing of the job is left but its receipt.
      expect(await client.exists(hash)).toBe(0);
    } finally {
      await outbox.close();
    }
  });

  it("delivers them with this release's worker, from the partition and from a parked list", async () => {
    const prefix = "previous";
    const keys = keysOf(prefix);
    // The previous release wrote the partition count alone and spread targets by FNV-1a.
    await client.set(`${prefix}:_:partitions`, String(PARTITIONS));
    const outbox = await open(prefix);
    const turns = createTurns(client, keys, PARTITIONS);
    const previousJob = (key: string, text: string, account: string) => ({
      platform: "telegram",
      account,
      payload: { text },
      target: { to: "6" },
      key,
    });
    // Exactly what the previous release's `enqueue` did: its turn, then BullMQ's add with its options.
    const queued = previousJob("3b0c5f1e-2a4d-4c6b-8e9f-1a2b3c4d5e6f", "queued before the upgrade", "bot-b");
    const partition = partitionOf("telegram@bot-b", "6", PARTITIONS, "fnv");
    const jobId = previousJobId(queued.key);
    const priority = await turns.admit({ partition, scope: "telegram@bot-b", jobId }, () => "");
    const queue = new Queue(keys.queue(partition), { connection: client, prefix });
    await queue.add("deliver", queued, {
      jobId,
      priority,
      removeOnComplete: true,
      removeOnFail: { age: 604_800 },
    });
    await queue.close();
    // A paused account's reply the previous release parked: its JSON, long names.
    const parked = previousJob("parked-key", "parked before the upgrade", "bot-c");
    const parkedPartition = partitionOf("telegram@bot-c", "6", PARTITIONS, "fnv");
    await client.hset(keys.paused(parkedPartition), "telegram@bot-c", "paused");
    await client.rpush(keys.held(parkedPartition, "telegram@bot-c", "parked"), JSON.stringify(parked));
    try {
      const worker = await outbox.createWorker();
      expect(await outbox.receipt(queued.key)).toMatchObject({
        status: "delivered",
        account: "bot-b",
        target: { to: "6" },
      });
      await outbox.resumeAccount("telegram", "bot-c");
      expect(await outbox.receipt(parked.key)).toMatchObject({ status: "delivered", account: "bot-c" });
      await worker.close();
      expect(emulator.observe(6).map((message) => message.text)).toEqual([
        "queued before the upgrade",
        "parked before the upgrade",
      ]);
      expect(await client.exists(`${prefix}:${keys.queue(partition)}:${jobId}`)).toBe(0);
    } finally {
      await outbox.close();
    }
  });

  it("keeps the partitions of an outbox the previous release started", async () => {
    await client.set("legacy:_:partitions", String(PARTITIONS));
    const outbox = await open("legacy");
    try {
      const to = [..."0123456789"].find(
        (chat) =>
          partitionOf("telegram@bot-d", chat, PARTITIONS, "fnv") !==
          partitionOf("telegram@bot-d", chat, PARTITIONS),
      ) as string;
      const { id } = await outbox.enqueue("telegram", { text: "legacy" }, { to }, { account: "bot-d" });
      const partition = partitionOf("telegram@bot-d", to, PARTITIONS, "fnv");
      expect(await client.exists(`legacy:${keysOf("legacy").queue(partition)}:${jobIdOf(id)}`)).toBe(1);
    } finally {
      await outbox.close();
    }
    // A new outbox records its partitioning, which the previous release refuses (not a number).
    await (await open("fresh")).close();
    expect(await client.get("fresh:_:partitions")).toBe(`${PARTITIONS} mixed`);
  });
});

const PARTITIONS = 4;

/** An outbox of `bot-*` accounts on the emulator. */
function open(prefix: string): Promise<Outbox> {
  return createOutbox({
    adapters: {},
    accounts: {
      platforms: ["telegram"],
      resolve: async (_account, services) =>
        createTelegramAdapter({ apiRoot: emulator.apiRoot, token: emulator.token, ...services }),
    },
    connection: redis.url,
    prefix,
    partitions: PARTITIONS,
  });
}
