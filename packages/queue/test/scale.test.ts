/**
 * Several worker processes on one Redis against the Telegram and Slack emulators, each
 * enforcing its platform's limits with 429s: every reply arrives once, each chat's replies
 * in enqueue order, and the workers together answer no 429 (the buckets are in Redis).
 */
import { startSlackEmulator } from "@outbox/slack/testing";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox } from "../src/index.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";
import { startWorkerProcess, type WorkerProcess } from "./support/worker-child.js";

const WORKERS = 3;
const CHATS = 20;
const PER_CHAT = 8;

let redis: RedisServer;

describe.skipIf(redisMissing)(`${WORKERS} worker processes ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const run = async (
    platform: "telegram" | "slack",
    spec: Parameters<typeof startWorkerProcess>[0],
    chatOf: (i: number) => string,
    observe: (chat: string) => Array<{ text?: string }>,
  ) => {
    const outbox = await createOutbox({
      adapters: { [platform]: () => unusable() },
      connection: redis.url,
      prefix: platform,
    });
    const workers: WorkerProcess[] = await Promise.all(
      Array.from({ length: WORKERS }, () => startWorkerProcess(spec)),
    );
    try {
      const ids: string[] = [];
      for (let round = 0; round < PER_CHAT; round += 1)
        for (let chat = 0; chat < CHATS; chat += 1)
          ids.push(
            (await outbox.enqueue(platform, { text: `chat ${chat} reply ${round}` }, { to: chatOf(chat) }))
              .id,
          );
      const receipts = await Promise.all(ids.map((id) => outbox.receipt(id)));
      expect(receipts.filter((receipt) => receipt.status !== "delivered")).toEqual([]);
      for (let chat = 0; chat < CHATS; chat += 1)
        expect(observe(chatOf(chat)).map((message) => message.text)).toEqual(
          Array.from({ length: PER_CHAT }, (_, round) => `chat ${chat} reply ${round}`),
        );
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await outbox.close();
    }
  };

  /** Each platform's emulator (enforcing its limits), as the run needs it. */
  const platforms = {
    telegram: async () => {
      const emulator = await startTelegramEmulator({
        chats: Array.from({ length: CHATS }, (_, i) => ({ id: i + 1 })),
      });
      return {
        emulator,
        spec: { telegram: { apiRoot: emulator.apiRoot, token: emulator.token } },
        chatOf: (chat: number) => String(chat + 1),
        observe: (chat: string) => emulator.observe(Number(chat)),
      };
    },
    slack: async () => {
      const emulator = await startSlackEmulator({
        channels: Array.from({ length: CHATS }, (_, i) => ({ id: `C0Q${i}` })),
      });
      return {
        emulator,
        spec: { slack: { slackApiUrl: emulator.slackApiUrl, token: emulator.token } },
        chatOf: (chat: number) => `C0Q${chat}`,
        observe: (chat: string) => emulator.observe(chat),
      };
    },
  };

  it.each(["telegram", "slack"] as const)(
    "%s: per-chat order, once each, 0 × 429 across the processes",
    async (platform) => {
      const { emulator, spec, chatOf, observe } = await platforms[platform]();
      try {
        await run(platform, { redis: redis.url, prefix: platform, ...spec }, chatOf, observe);
        expect(emulator.rateLimitRefusals()).toBe(0);
      } finally {
        await emulator.close();
      }
    },
  );
});

/** The producer only queues: it never builds an adapter. */
function unusable(): never {
  throw new Error("the producer does not deliver");
}
