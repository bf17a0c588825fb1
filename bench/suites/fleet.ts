/**
 * @outbox/queue with a fleet: 100 bots (accounts resolved at run time, each its own limits in
 * Redis) on one real redis-server, each bot sending replies to its own chat through the real
 * Telegram and Slack adapters to their emulators (another process, the platforms' limits
 * enforced; Telegram's overall 30/s is per bot, so the one emulator token that stands for the
 * 100 bots allows 100 × 30/s). Producer and worker run in this process, so its CPU is the
 * client's. Reports client CPU per message under load, Redis commands and CPU per delivered
 * part, wall over the floor the limits allow (the stricter of the emulator's and the adapter's
 * declared limits), 429s, lost and duplicated replies (with 32 and
 * 128 partitions; `--quick` 32 only), and Redis memory per queued reply across the fleet (no
 * worker running; goal ≤ 1 KB), with Redis's default hash encoding and with
 * `hash-max-listpack-value 1024`.
 * Full run: 10 replies per bot per platform; `--quick`: 6.
 */

import type { RateLimit } from "@outbox/core";
import { createOutbox, type Outbox, type OutboxConfig } from "@outbox/queue";
import { createSlackAdapter, slackCapabilities } from "@outbox/slack";
import { createTelegramAdapter, telegramCapabilities } from "@outbox/telegram";
import { Redis } from "ioredis";
import { redisMissing, startRedis } from "../../packages/queue/test/support/redis-server.js";
import { loadChannel, startEmulatorProcess } from "../support/emulator-child.js";
import type { Metric, Suite } from "../support/metrics.js";
import { memoryPerQueuedReply, redisWork } from "../support/redis-figures.js";
import { round } from "../support/stats.js";
import { floorMs } from "./load.js";
import { producerOnly } from "./queue-chaos.js";

type Platform = "telegram" | "slack";

const BOTS = 100;

const reply = (bot: number, n: number) => `Reply **${n}** of bot ${bot}: some _text_ and \`code\`.`;
const shown = (bot: number, n: number) => `Reply ${n} of bot ${bot}: some text and code.`;
const chatOf = (platform: Platform, bot: number) =>
  platform === "telegram" ? String(bot + 1) : loadChannel("slack", bot + 1);

/**
 * The least time `count` replies to chat `to`, all queued at once, take under the limits an
 * adapter declares: each limit that applies lets its burst through at once, then `limit`
 * per `intervalMs`.
 */
export function declaredFloorMs(limits: readonly RateLimit[], to: string, count: number): number {
  let floor = 0;
  for (const limit of limits)
    if (limit.match === undefined || new RegExp(limit.match).test(to))
      floor = Math.max(
        floor,
        (Math.max(0, count - (limit.burst ?? limit.limit)) * limit.intervalMs) / limit.limit,
      );
  return floor;
}

const platformCapabilities = { telegram: telegramCapabilities, slack: slackCapabilities };

/** Queue `perBot` rounds, each round one reply per bot (bots at once, rounds in order). */
async function enqueueFleet(outbox: Outbox, platform: Platform, perBot: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < perBot; n += 1) {
    const sent = await Promise.all(
      Array.from({ length: BOTS }, (_, bot) =>
        outbox.enqueue(
          platform,
          { text: reply(bot, n) },
          { to: chatOf(platform, bot) },
          { account: `bot${bot}` },
        ),
      ),
    );
    ids.push(...sent.map(({ id }) => id));
  }
  return ids;
}

async function scenario(platform: Platform, perBot: number, partitions: number) {
  const redis = await startRedis();
  const client = new Redis(redis.url);
  process.env.OUTBOX_BENCH_BOTS = String(BOTS);
  const emulator = await startEmulatorProcess(true, platform, BOTS);
  delete process.env.OUTBOX_BENCH_BOTS;
  const { apiRoot, token } = emulator;
  const config: OutboxConfig = {
    adapters: {},
    accounts: {
      platforms: [platform],
      // Every bot has the emulator's token: the emulator stands for the platform.
      resolve: async (_account, services) =>
        platform === "telegram"
          ? createTelegramAdapter({ apiRoot, token, ...services })
          : createSlackAdapter({ slackApiUrl: apiRoot, token, ...services }),
    },
    connection: redis.url,
    prefix: "fleet",
    partitions,
  };
  const outbox = await createOutbox(config);
  try {
    const worker = await outbox.createWorker();
    const redisBefore = await redisWork(client);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const ids = await enqueueFleet(outbox, platform, perBot);
    const receipts = await Promise.all(ids.map((id) => outbox.receipt(id)));
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const redisAfter = await redisWork(client);
    await worker.close();
    const seen = await emulator.stats();
    let lost = 0;
    let duplicates = 0;
    for (let bot = 0; bot < BOTS; bot += 1) {
      const texts = seen.messages[chatOf(platform, bot)] ?? [];
      for (let n = 0; n < perBot; n += 1) {
        const count = texts.filter((text) => text === shown(bot, n)).length;
        if (count === 0) lost += 1;
        duplicates += Math.max(0, count - 1);
      }
    }
    const parts = receipts.reduce((sum, receipt) => sum + (receipt.receipt?.messages.length ?? 0), 0);
    return {
      messages: ids.length,
      parts,
      cpuMsPerMessage: (cpu.user + cpu.system) / 1000 / ids.length,
      commandsPerPart: (redisAfter.commands - redisBefore.commands) / Math.max(parts, 1),
      redisCpuMsPerPart: (redisAfter.cpuMs - redisBefore.cpuMs) / Math.max(parts, 1),
      wallMs,
      // Each bot alone in its chat: the stricter of the limits the emulator enforces and those
      // the adapter declares (Telegram's emulator lets 5 through at once, the adapter
      // declares Telegram's published burst of 3: no client that keeps to it sends faster).
      floorMs: Math.max(
        floorMs(perBot, 1, platform === "slack" ? "slack" : "private"),
        declaredFloorMs(platformCapabilities[platform].rateLimits, chatOf(platform, 0), perBot),
      ),
      refused429: seen.refused429,
      lost: lost + receipts.filter((receipt) => receipt.status !== "delivered").length,
      duplicates,
    };
  } finally {
    await outbox.close();
    emulator.close();
    client.disconnect();
    await redis.stop();
  }
}

/** The fleet suite. */
export const fleetSuite: Suite = {
  name: "fleet",
  async run({ quick }) {
    if (redisMissing !== undefined) throw new Error(`fleet bench needs Redis: ${redisMissing}`);
    const metrics: Metric[] = [];
    const perBot = quick ? 6 : 10;
    // The default partitions, and as many as bots (each bot's chat then has a partition of its own).
    const runs = [
      { platform: "telegram", partitions: 32 },
      { platform: "slack", partitions: 32 },
      { platform: "telegram", partitions: 128 },
      { platform: "slack", partitions: 128 },
    ] as const;
    for (const { platform, partitions } of quick ? runs.slice(0, 2) : runs) {
      const r = await scenario(platform, perBot, partitions);
      const id = `fleet.${platform}${partitions === 32 ? "" : `.p${partitions}`}`;
      const note = `${BOTS} bots × ${perBot} replies, each bot to its own chat, one worker process, ${partitions} partitions`;
      const zero = { goal: { op: "<=", target: 0 }, max: 0 } as const;
      const found: Metric[] = [
        {
          id: `${id}.cpu-ms-per-message`,
          value: round(r.cpuMsPerMessage, 3),
          unit: "ms",
          note: `${note}: producer and worker CPU over ${r.messages} messages`,
        },
        {
          id: `${id}.redis-commands-per-part`,
          value: round(r.commandsPerPart, 1),
          unit: "count",
          note: `${note}: ${r.parts} parts (INFO commandstats, script calls included, BullMQ's polling too)`,
        },
        {
          id: `${id}.redis-cpu-ms-per-part`,
          value: round(r.redisCpuMsPerPart, 3),
          unit: "ms",
          note: `${note}: redis-server's CPU (INFO cpu) over ${r.parts} parts`,
        },
        {
          id: `${id}.wall-over-floor`,
          value: round(r.wallMs / Math.max(r.floorMs, 1), 2),
          unit: "×",
          goal: { op: "<=", target: 1.05 },
          note: `${note}: wall ${round(r.wallMs / 1000, 1)} s, floor ${round(r.floorMs / 1000, 1)} s`,
        },
        { id: `${id}.429`, value: r.refused429, unit: "count", goal: zero.goal, note },
        { id: `${id}.lost`, value: r.lost, unit: "count", ...zero, note },
        { id: `${id}.duplicates`, value: r.duplicates, unit: "count", ...zero, note },
      ];
      for (const metric of found)
        console.log(`  ${metric.id} ${metric.value} ${metric.unit} (${metric.note ?? ""})`);
      metrics.push(...found);
    }
    for (const listpackValue of [64, 1024]) {
      // Redis's `hash-max-listpack-value` is 64 by default: a job's hash holds longer values,
      // so it takes the larger hashtable encoding unless this is raised.
      const count = quick ? 1_000 : 10_000;
      const bytes = Math.round(
        await memoryPerQueuedReply(
          count,
          { adapters: {}, accounts: { platforms: ["telegram"], resolve: producerOnly } },
          (outbox) => enqueueFleet(outbox, "telegram", count / BOTS),
          { "hash-max-listpack-value": String(listpackValue) },
        ),
      );
      const id = `fleet.redis-bytes-per-queued-reply${listpackValue === 64 ? "" : ".listpack"}`;
      console.log(`  ${id} ${bytes} bytes`);
      metrics.push({
        id,
        value: bytes,
        unit: "bytes",
        goal: { op: "<=", target: 1024 },
        note: `Redis used_memory growth per queued text reply of ${BOTS} bots (no worker running), hash-max-listpack-value ${listpackValue}`,
      });
    }
    return metrics;
  },
};
