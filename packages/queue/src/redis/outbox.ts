/**
 * The outbox on Redis: `enqueue` adds a BullMQ job to the partition of its target (one job of
 * a partition runs at a time, across every worker: per-target order); results come back
 * through a Redis key per job and a pub/sub channel.
 */
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { Completions } from "../events.js";
import { toJob } from "../job.js";
import type { Outbox, OutboxConfig, QueuedReceipt } from "../types.js";
import { connect, jobIdOf, keysOf, partitionOf, partitionQueue } from "./keys.js";
import { startRedisWorker } from "./worker.js";

const DEFAULT_PARTITIONS = 32;
const DEFAULT_RETENTION_SECONDS = 7 * 24 * 3600;

/** Settings both sides of a Redis outbox share. */
export interface RedisSettings {
  /** The outbox's configuration as given. */
  config: OutboxConfig;
  /** Where Redis is. */
  connection: NonNullable<OutboxConfig["connection"]>;
  /** Key prefix (`config.prefix` or the default). */
  prefix: string;
  /** Number of partitions (`config.partitions` or the default). */
  partitions: number;
  /** How long finished jobs and their receipts are kept (`config.retentionSeconds` or the default). */
  retentionSeconds: number;
  /** The Redis keys derived from the prefix. */
  keys: ReturnType<typeof keysOf>;
}

/** An outbox on Redis (see {@link createOutbox}). */
export async function createRedisOutbox(
  config: OutboxConfig & { connection: NonNullable<OutboxConfig["connection"]> },
): Promise<Outbox> {
  const prefix = config.prefix ?? "outbox";
  const partitions = config.partitions ?? DEFAULT_PARTITIONS;
  if (!Number.isInteger(partitions) || partitions < 1)
    throw new RangeError(`partitions must be a positive integer, got ${partitions}`);
  const settings: RedisSettings = {
    config,
    connection: config.connection,
    prefix,
    partitions,
    retentionSeconds: config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
    keys: keysOf(prefix),
  };
  const { keys } = settings;
  const redis = connect(config.connection);
  await redis.set(keys.partitions, String(partitions), "NX");
  const agreed = Number(await redis.get(keys.partitions));
  if (agreed !== partitions) {
    redis.disconnect();
    throw new RangeError(
      `outbox ${JSON.stringify(prefix)} runs on ${agreed} partitions in Redis; this process asked for ${partitions} (per-target order needs one number everywhere)`,
    );
  }
  const queues = Array.from(
    { length: partitions },
    (_, n) => new Queue(partitionQueue(n), { connection: redis, prefix }),
  );
  await Promise.all(queues.map((queue) => queue.setGlobalConcurrency(1)));
  const platforms = Object.keys(config.adapters);
  const completions = new Completions();
  let subscriber: Promise<Redis> | undefined;

  const subscribe = (): Promise<Redis> => {
    subscriber ??= (async () => {
      const connection = redis.duplicate();
      connection.on("message", (_channel: string, message: string) =>
        completions.emit(JSON.parse(message) as QueuedReceipt),
      );
      await connection.subscribe(keys.finished);
      return connection;
    })();
    return subscriber;
  };
  const lookup = async (id: string): Promise<QueuedReceipt | undefined> => {
    const json = await redis.get(keys.result(id));
    return json === null ? undefined : (JSON.parse(json) as QueuedReceipt);
  };

  return {
    mode: "redis",
    async enqueue(platform, payload, target, options) {
      const job = toJob(platforms, platform, payload, target, options);
      if ((await redis.exists(keys.result(job.key))) === 1) return { id: job.key };
      const queue = queues[partitionOf(platform, target.to, partitions)] as Queue;
      await queue.add("deliver", job, {
        jobId: jobIdOf(job.key),
        removeOnComplete: true,
        removeOnFail: { age: settings.retentionSeconds },
      });
      return { id: job.key };
    },
    async receipt(id, options) {
      await subscribe();
      return completions.wait(id, () => lookup(id), options?.signal);
    },
    on(event, listener) {
      subscribe().catch(() => undefined);
      return completions.on(event, listener);
    },
    async deadLetters(limit = 100) {
      const ids = await redis.lrange(keys.dead, 0, limit - 1);
      const found = await Promise.all(ids.map(lookup));
      return found.filter((receipt): receipt is QueuedReceipt => receipt !== undefined);
    },
    createWorker: (options) => startRedisWorker(settings, options),
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
      if (subscriber !== undefined) (await subscriber).disconnect();
      redis.disconnect();
    },
  };
}
