/** What the queue suites read from a redis-server: its memory per queued reply, its commands and CPU. */
import { createOutbox, type Outbox, type OutboxConfig } from "@outbox/queue";
import { Redis } from "ioredis";
import { startRedis } from "../../packages/queue/test/support/redis-server.js";

/** Redis's `used_memory`, bytes. */
const usedMemory = async (client: Redis): Promise<number> =>
  Number(/used_memory:(\d+)/.exec(await client.info("memory"))?.[1]);

/**
 * Bytes of Redis memory per queued reply: a fresh redis-server (`settings` applied with
 * `CONFIG SET` first), an outbox of `config` (its connection added) and `fill`, which queues
 * `count` replies with no worker running; `used_memory`'s growth over `count`.
 */
export async function memoryPerQueuedReply(
  count: number,
  config: Omit<OutboxConfig, "connection">,
  fill: (outbox: Outbox) => Promise<unknown>,
  settings: Record<string, string> = {},
): Promise<number> {
  const redis = await startRedis();
  const client = new Redis(redis.url);
  try {
    for (const [name, value] of Object.entries(settings)) await client.config("SET", name, value);
    const outbox = await createOutbox({ ...config, connection: redis.url });
    const before = await usedMemory(client);
    await fill(outbox);
    const after = await usedMemory(client);
    await outbox.close();
    return (after - before) / count;
  } finally {
    client.disconnect();
    await redis.stop();
  }
}

/** Commands Redis has run so far (`INFO commandstats`, scripts' own calls included) and its CPU in ms. */
export async function redisWork(client: Redis): Promise<{ commands: number; cpuMs: number }> {
  const [stats, cpu] = await Promise.all([client.info("commandstats"), client.info("cpu")]);
  let commands = 0;
  for (const match of stats.matchAll(/calls=(\d+)/g)) commands += Number(match[1]);
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  return { commands, cpuMs: (seconds("used_cpu_user") + seconds("used_cpu_sys")) * 1000 };
}
