/**
 * The outbox on Redis: `enqueue` adds a BullMQ job to the partition of its target (one job of
 * a partition runs at a time, across every worker: per-target order), in its account's turn
 * (redis/turns.ts); results come back
 * through a Redis key per job and a pub/sub channel (receipts), and a stream (events).
 */
import { Queue } from "bullmq";
import { accountScope, platformsOf } from "../adapter-pool.js";
import { Completions } from "../events.js";
import { type JobData, toJob } from "../job.js";
import { tracedEnqueue } from "../trace.js";
import type { Outbox, OutboxConfig, QueuedReceipt } from "../types.js";
import { type EventReader, newestEntry, startEventReader } from "./event-reader.js";
import { createRedisHealth } from "./health.js";
import { connect, isCluster, jobIdOf, keysOf, partitionOf, type RedisClient } from "./keys.js";
import type { RedisSettings } from "./settings.js";
import { partitionTags, SLOTS } from "./slots.js";
import { readJob, type StoredJob, storeJob } from "./stored-job.js";
import { createTurns } from "./turns.js";
import { startRedisWorker } from "./worker.js";

const DEFAULT_PARTITIONS = 32;
const DEFAULT_RETENTION_SECONDS = 7 * 24 * 3600;

/** How often waiting receipts are looked up even without news (a missed publish), in ms. */
const RECHECK_MS = 10_000;
/** Results fetched per MGET when waiting receipts are looked up. */
const RECHECK_BATCH = 500;

/**
 * The values of `keys`: one MGET on a single Redis; on a cluster one GET each (the keys lie
 * in many slots, and a multi-key command must stay in one).
 */
const getAll = (redis: RedisClient, cluster: boolean, keys: string[]): Promise<Array<string | null>> =>
  cluster ? Promise.all(keys.map((key) => redis.get(key))) : redis.mget(keys);

/** An outbox on Redis (see {@link createOutbox}). */
export async function createRedisOutbox(
  config: OutboxConfig & { connection: NonNullable<OutboxConfig["connection"]> },
): Promise<Outbox> {
  const prefix = config.prefix ?? "outbox";
  const partitions = config.partitions ?? DEFAULT_PARTITIONS;
  if (!Number.isInteger(partitions) || partitions < 1)
    throw new RangeError(`partitions must be a positive integer, got ${partitions}`);
  const cluster = isCluster(config.connection);
  if (cluster && /[{}]/.test(prefix))
    throw new RangeError(
      `prefix ${JSON.stringify(prefix)} has a brace: on a Redis Cluster the outbox places the hash tags itself`,
    );
  if (cluster && partitions > SLOTS)
    throw new RangeError(
      `partitions must be at most ${SLOTS} on a Redis Cluster (its slots), got ${partitions}`,
    );
  const completions = new Completions();
  const settings: RedisSettings = {
    health: createRedisHealth((change) => completions.redis(change)),
    config,
    connection: config.connection,
    prefix,
    partitions,
    retentionSeconds: config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS,
    keys: keysOf(prefix, cluster ? partitionTags(partitions) : undefined),
  };
  const { keys } = settings;
  const redis = connect(config.connection);
  settings.health.watch(redis);
  // An outbox an earlier release started keeps its partitioning (its queued jobs stay where
  // their chats' next jobs go); an earlier release refuses the new value (not a number).
  await redis.set(keys.partitions, `${partitions} mixed`, "NX");
  const [agreed, partitioning = "fnv"] = String(await redis.get(keys.partitions)).split(" ");
  const refused = (what: string): RangeError => {
    redis.disconnect();
    return new RangeError(`outbox ${JSON.stringify(prefix)} ${what}`);
  };
  if (Number(agreed) !== partitions)
    throw refused(
      `runs on ${agreed} partitions in Redis; this process asked for ${partitions} (per-target order needs one number everywhere)`,
    );
  if (partitioning !== "fnv" && partitioning !== "mixed")
    throw refused(
      `spreads targets by ${JSON.stringify(partitioning)} in Redis, which this release does not know`,
    );
  const queues = Array.from(
    { length: partitions },
    // BullMQ's own event stream per partition (10,000 entries by default, about 230 bytes per
    // queued job) is read by nothing here: the outbox's events are its own stream.
    (_, n) => new Queue(keys.queue(n), { connection: redis, prefix, streams: { events: { maxLen: 0 } } }),
  );
  for (const queue of queues) queue.on("error", settings.health.failed);
  await Promise.all(queues.map((queue) => queue.setGlobalConcurrency(1)));
  const platforms = platformsOf(config);
  const turns = createTurns(redis, keys, partitions);
  /** Add a job to its partition in its account's turn (or park it while the account is paused). */
  const add = async (job: JobData, resuming = false): Promise<void> => {
    const scope = accountScope(job.platform, job.account);
    const partition = partitionOf(scope, job.target.to, partitions, partitioning);
    const jobId = jobIdOf(job.key);
    const stored = storeJob(job);
    const priority = await turns.admit({ partition, scope, jobId }, () => JSON.stringify(stored), resuming);
    if (priority === undefined) return;
    // What becomes of it once finished is the workers' option (worker.ts), not stored per job.
    await (queues[partition] as Queue).add("deliver", stored, { jobId, priority });
  };
  let subscriber: Promise<RedisClient> | undefined;
  let recheckTimer: NodeJS.Timeout | undefined;
  let events: EventReader | undefined;

  const lookup = async (id: string): Promise<QueuedReceipt | undefined> => {
    const json = await redis.get(keys.result(id));
    return json === null ? undefined : (JSON.parse(json) as QueuedReceipt);
  };
  /** Look up every waiting receipt: a result published while unsubscribed was missed. */
  const recheck = async (): Promise<void> => {
    const ids = completions.pending;
    for (let start = 0; start < ids.length; start += RECHECK_BATCH) {
      const batch = ids.slice(start, start + RECHECK_BATCH);
      const found = await getAll(redis, cluster, batch.map(keys.result));
      for (const json of found) if (json !== null) completions.settle(JSON.parse(json) as QueuedReceipt);
    }
  };
  const recheckQuietly = (): void => void recheck().catch(() => undefined);
  const subscribe = (): Promise<RedisClient> => {
    subscriber ??= (async () => {
      const connection = redis.duplicate();
      settings.health.watch(connection);
      connection.on("message", (_channel: string, message: string) =>
        completions.settle(JSON.parse(message) as QueuedReceipt),
      );
      await connection.subscribe(keys.finished);
      // After a reconnection (ioredis subscribes again): subscribe (answered once the
      // subscription holds), then look up what was published meanwhile.
      connection.on("ready", () => {
        connection.subscribe(keys.finished).then(recheckQuietly, () => undefined);
      });
      recheckTimer = setInterval(() => {
        if (completions.pending.length > 0) recheckQuietly();
      }, RECHECK_MS);
      recheckTimer.unref();
      return connection;
    })();
    return subscriber;
  };

  return {
    mode: "redis",
    enqueue: (platform, payload, target, options) =>
      tracedEnqueue(platform, target?.to, async (trace) => {
        const job = toJob(platforms, platform, payload, target, options);
        if ((await redis.exists(keys.result(job.key))) === 1) return { id: job.key };
        await add(trace === undefined ? job : { ...job, trace });
        return { id: job.key };
      }),
    async receipt(id, options) {
      await subscribe();
      return completions.wait(id, () => lookup(id), options?.signal);
    },
    on(event, listener) {
      if (event !== "redis" && events === undefined) {
        const connection = redis.duplicate();
        settings.health.watch(connection);
        const from = newestEntry(redis, keys.events);
        events = startEventReader(connection, keys.events, from, (receipt) => completions.announce(receipt));
      }
      return completions.on(event, listener);
    },
    async stats() {
      const [counts, heads] = await Promise.all([
        Promise.all(queues.map((queue) => queue.getJobCounts("waiting", "prioritized", "active", "delayed"))),
        // The head of each partition: its wait list (jobs back from a dead worker) and the first in turn.
        Promise.all(queues.map((queue) => queue.getJobs(["wait", "prioritized"], 0, 0, true))),
      ]);
      let oldest = Number.POSITIVE_INFINITY;
      for (const job of heads.flat()) if (job !== undefined) oldest = Math.min(oldest, job.timestamp);
      const sum = (field: string) => counts.reduce((total, count) => total + (count[field] ?? 0), 0);
      return {
        waiting: sum("waiting") + sum("prioritized"),
        active: sum("active"),
        delayed: sum("delayed"),
        oldestWaitingMs: oldest === Number.POSITIVE_INFINITY ? 0 : Math.max(0, Date.now() - oldest),
        receiptsPending: completions.pending.length,
      };
    },
    pauseAccount: (platform, account) => turns.pause(accountScope(platform, account)),
    resumeAccount: (platform, account) =>
      turns.resume(accountScope(platform, account), async (_n, json) => {
        const job = readJob(JSON.parse(json) as StoredJob | JobData);
        // Finished meanwhile (a job held twice, or re-added before a crash): nothing to add.
        if ((await redis.exists(keys.result(job.key))) === 0) await add(job, true);
      }),
    async deadLetters(limit = 100) {
      const ids = await redis.lrange(keys.dead, 0, limit - 1);
      const found = await Promise.all(ids.map(lookup));
      return found.filter((receipt): receipt is QueuedReceipt => receipt !== undefined);
    },
    createWorker: (options) => startRedisWorker(settings, options),
    async close() {
      clearInterval(recheckTimer);
      events?.stop();
      await Promise.all(queues.map((queue) => queue.close()));
      if (subscriber !== undefined) (await subscriber).disconnect();
      redis.disconnect();
    },
  };
}
