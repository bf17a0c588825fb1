/**
 * A worker on Redis: one BullMQ worker per partition (each partition runs one job at a time
 * across every process), each account's adapter built with the Redis journal and the rate
 * gate it shares with every worker.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { StoreError, systemClock } from "@outbox/core";
import { type Job, Worker } from "bullmq";
import type { ChainableCommander } from "ioredis";
import { accountScope, createAdapterPool } from "../adapter-pool.js";
import { accountOf, attemptsOf, deadReceipt, type JobData, reasonOf, runJob } from "../job.js";
import type { DeliveryStep, OutboxWorker, QueuedReceipt, WorkerOptions } from "../types.js";
import { connect, isCluster } from "./keys.js";
import { createRateGate, type LatencyWindow, latencyWindow } from "./rate-gate.js";
import type { RedisSettings } from "./settings.js";
import { createRedisStore, type Fence, LostJobError } from "./store.js";
import { readJob, type StoredJob } from "./stored-job.js";
import { createTurns } from "./turns.js";

/** Dead-letter ids kept (the receipts themselves expire with the retention). */
const DEAD_KEPT = 10_000;
/** Finished deliveries the events stream keeps (about; Redis trims whole nodes). */
const EVENTS_KEPT = 10_000;

/** Start a worker for every partition of the outbox in this process. */
export async function startRedisWorker(
  settings: RedisSettings,
  options: WorkerOptions = {},
): Promise<OutboxWorker> {
  const { config, keys, retentionSeconds } = settings;
  const redis = connect(settings.connection);
  const cluster = isCluster(settings.connection);
  settings.health.watch(redis);
  /** The job this async context delivers: its key, its partition and its fence (lock and token). */
  const current = new AsyncLocalStorage<{ key: string; partition: number; fence: Fence | undefined }>();
  const step = (
    kind: DeliveryStep["kind"],
    id: string | undefined,
    at: Pick<DeliveryStep, "part" | "attempt"> = {},
  ): void => {
    if (id !== undefined) options.onStep?.({ kind, id, ...at });
  };
  const store = createRedisStore(
    redis,
    // In the slot of the job's lock on a cluster: the fenced write takes both in one script.
    (key) => keys.journal(key, current.getStore()?.partition),
    retentionSeconds,
    (key) => {
      const job = current.getStore();
      return job?.key === key ? job.fence : undefined;
    },
    {
      before: (key) => step("journal", key),
      after: (key, journal) =>
        journal.sending === undefined ? step("journaled", key) : step("send", key, { part: journal.sending }),
    },
  );
  /** Each platform's answer times, which its accounts' gates hold back for (see createRateGate). */
  const latencies = new Map<string, LatencyWindow>();
  const pool = createAdapterPool(config, (ref, built) => {
    const scope = accountScope(ref.platform, ref.account);
    let latency = latencies.get(ref.platform);
    if (latency === undefined) {
      latency = latencyWindow();
      latencies.set(ref.platform, latency);
    }
    let gate: ReturnType<typeof createRateGate> | undefined;
    return {
      store,
      pacing: {
        // The adapter's own pacing (margin, latency allowance) is the gate's too.
        gate: async (to, signal, call, pacing) => {
          gate ??= createRateGate(
            redis,
            (rule, target) => keys.bucket(scope, rule, target),
            built().capabilities.rateLimits,
            systemClock,
            pacing,
            latency,
          );
          step("pace", current.getStore()?.key, call ?? {});
          try {
            return await gate(to, signal);
          } catch (error) {
            if (signal?.aborted) throw error;
            // Nothing was sent: a failure another attempt may fix, never an ambiguous one.
            throw new StoreError(`the shared rate limit could not be taken in Redis: ${reasonOf(error)}`, {
              cause: error,
            });
          }
        },
      },
    };
  });
  const turns = createTurns(redis, keys, settings.partitions);

  const finish = async (receipt: QueuedReceipt): Promise<void> => {
    const json = JSON.stringify(receipt);
    const writes: Array<(multi: ChainableCommander) => ChainableCommander> = [
      (multi) => multi.set(keys.result(receipt.id), json, "EX", retentionSeconds),
      (multi) => multi.xadd(keys.events, "MAXLEN", "~", EVENTS_KEPT, "*", "receipt", json),
      (multi) => multi.publish(keys.finished, json),
    ];
    if (receipt.status === "dead")
      writes.push((multi) => multi.lpush(keys.dead, receipt.id).ltrim(keys.dead, 0, DEAD_KEPT - 1));
    // They need not be one transaction: a worker that dies between them has not finished its
    // job, so the job runs again (the journal skips what was sent) and all are written again.
    // One pipeline (one round trip, no MULTI and EXEC) on a single Redis; on a cluster these
    // keys lie in different slots, which no pipeline spans: one transaction each.
    if (cluster) await Promise.all(writes.map((write) => write(redis.multi()).exec()));
    else await writes.reduce((pipeline, write) => write(pipeline), redis.pipeline()).exec();
  };

  const deliver = async (partition: number, job: Job<StoredJob | JobData>, token?: string): Promise<void> => {
    const data = readJob(job.data);
    const turn = {
      partition,
      scope: accountScope(data.platform, data.account),
      jobId: job.id as string,
    };
    // Its account is paused: the job waits in the account's drained list, no receipt yet.
    if (!(await turns.start(turn, () => JSON.stringify(job.data)))) return;
    const lost = new AbortController();
    const fence: Fence | undefined =
      token === undefined
        ? undefined
        : {
            lockKey: `${job.queueQualifiedName}:${job.id}:lock`,
            token,
            lost: () =>
              lost.abort(new LostJobError(`job ${data.key} went to another worker (its lock lapsed)`)),
          };
    const previous = Math.max(0, job.attemptsStarted - 1);
    let receipt: QueuedReceipt;
    if (previous >= attemptsOf(data))
      receipt = deadReceipt(
        data.key,
        data,
        previous,
        `its worker stopped during each of ${previous} attempts`,
      );
    else
      try {
        const lease = await pool.acquire(accountOf(data));
        let ran: QueuedReceipt | undefined;
        try {
          ran = await current.run({ key: data.key, partition, fence }, () =>
            runJob(data.key, data, lease.adapter, (ms) => systemClock.sleep(ms), previous, lost.signal),
          );
        } finally {
          lease.release(ran);
        }
        receipt = ran;
      } catch (error) {
        // The job is another worker's now: it delivers the rest and publishes the receipt.
        if (lost.signal.aborted) throw error;
        receipt = deadReceipt(data.key, data, previous + 1, reasonOf(error));
      }
    await finish(receipt);
  };

  const workers = Array.from({ length: settings.partitions }, (_, n) => {
    const worker = new Worker<StoredJob | JobData>(keys.queue(n), (job, token) => deliver(n, job, token), {
      connection: redis,
      prefix: settings.prefix,
      concurrency: 1,
      // For every job, instead of in each job's options (a queued job is smaller); jobs an
      // earlier release queued carry the same in their own options.
      removeOnComplete: { count: 0 },
      removeOnFail: { age: retentionSeconds },
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 15_000,
      // A job whose workers keep dying is dead-lettered by `deliver` (attempts), not by BullMQ.
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    });
    worker.on("error", () => undefined);
    return worker;
  });

  return {
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await pool.close();
      redis.disconnect();
    },
  };
}
