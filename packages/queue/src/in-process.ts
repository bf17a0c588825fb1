/**
 * The embedded outbox: the same API in this process, no Redis. Jobs wait in one FIFO per
 * target, accounts taking turns; a worker runs up to `concurrency` targets at once, one job
 * per target at a time.
 */
import { createMemoryStore, systemClock } from "@outbox/core";
import { accountScope, createAdapterPool, platformsOf } from "./adapter-pool.js";
import { Completions } from "./events.js";
import { FairLanes } from "./fair-lanes.js";
import { accountOf, deadReceipt, type JobData, reasonOf, runJob, toJob } from "./job.js";
import { tracedEnqueue } from "./trace.js";
import type { Outbox, OutboxConfig, OutboxWorker, QueuedReceipt } from "./types.js";

const DEFAULT_CONCURRENCY = 8;

/** An outbox in this process (see {@link createOutbox}). */
export function createInProcessOutbox(config: OutboxConfig): Outbox {
  const platforms = platformsOf(config);
  const completions = new Completions();
  const results = new Map<string, QueuedReceipt>();
  const known = new Set<string>();
  const lanes = new FairLanes<JobData>();
  const dead: QueuedReceipt[] = [];
  /** When each waiting job was queued, by key, oldest first (insertion order). */
  const waitingSince = new Map<string, number>();
  const store = createMemoryStore();
  const pool = createAdapterPool(config, () => ({ store, pacing: {} }));
  let slots = 0;
  let running = 0;

  /** Run a job with its account's adapter; a job whose account cannot be resolved is dead. */
  const deliver = async (job: JobData): Promise<QueuedReceipt> => {
    let lease: Awaited<ReturnType<typeof pool.acquire>>;
    try {
      lease = await pool.acquire(accountOf(job));
    } catch (error) {
      return deadReceipt(job.key, job, 1, reasonOf(error));
    }
    const receipt = await runJob(job.key, job, lease.adapter, (ms) => systemClock.sleep(ms));
    lease.release(receipt);
    return receipt;
  };

  const pump = (): void => {
    while (running < slots) {
      const taken = lanes.take();
      if (taken === undefined) return;
      const { lane, job } = taken;
      running += 1;
      waitingSince.delete(job.key);
      deliver(job).then((receipt) => {
        running -= 1;
        results.set(receipt.id, receipt);
        if (receipt.status === "dead") dead.unshift(receipt);
        lanes.done(lane);
        completions.emit(receipt);
        pump();
      });
    }
  };

  return {
    mode: "in-process",
    enqueue: (platform, payload, target, options) =>
      tracedEnqueue(platform, target?.to, async (trace) => {
        const job = toJob(platforms, platform, payload, target, options);
        if (known.has(job.key)) return { id: job.key };
        known.add(job.key);
        waitingSince.set(job.key, Date.now());
        const scope = accountScope(platform, job.account);
        lanes.push(scope, `${scope}\u0000${target.to}`, trace === undefined ? job : { ...job, trace });
        pump();
        return { id: job.key };
      }),
    receipt(id, options) {
      if (!known.has(id))
        return Promise.reject(new RangeError(`no job ${JSON.stringify(id)} was queued in this outbox`));
      return completions.wait(id, async () => results.get(id), options?.signal);
    },
    on: (event, listener) => completions.on(event, listener),
    async stats() {
      const oldest = waitingSince.values().next();
      return {
        waiting: waitingSince.size,
        active: running,
        delayed: 0,
        oldestWaitingMs: oldest.done ? 0 : Math.max(0, Date.now() - oldest.value),
        receiptsPending: completions.pending.length,
      };
    },
    async pauseAccount(platform, account) {
      lanes.pause(accountScope(platform, account));
    },
    async resumeAccount(platform, account) {
      lanes.resume(accountScope(platform, account));
      pump();
    },
    async deadLetters(limit = 100) {
      return dead.slice(0, limit);
    },
    async createWorker(options = {}) {
      const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
      slots += concurrency;
      pump();
      let closed = false;
      return {
        async close() {
          if (closed) return;
          closed = true;
          slots -= concurrency;
        },
      } satisfies OutboxWorker;
    },
    close: () => pool.close(),
  };
}
