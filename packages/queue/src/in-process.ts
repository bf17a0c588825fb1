/**
 * The embedded outbox: the same API in this process, no Redis. Jobs wait in one FIFO per
 * target; a worker runs up to `concurrency` targets at once, one job per target at a time.
 */
import { type ChannelAdapter, createMemoryStore, systemClock } from "@outbox/core";
import { Fifo } from "@outbox/core/internal";
import { Completions } from "./events.js";
import { type JobData, runJob, toJob } from "./job.js";
import { tracedEnqueue } from "./trace.js";
import type { Outbox, OutboxConfig, OutboxWorker, QueuedReceipt } from "./types.js";

const DEFAULT_CONCURRENCY = 8;

/** An outbox in this process (see {@link createOutbox}). */
export function createInProcessOutbox(config: OutboxConfig): Outbox {
  const platforms = Object.keys(config.adapters);
  const completions = new Completions();
  const results = new Map<string, QueuedReceipt>();
  const known = new Set<string>();
  const lanes = new Map<string, Fifo<JobData>>();
  /** Lanes with a job to run and none running, in the order they became ready. */
  const ready = new Fifo<string>();
  const dead: QueuedReceipt[] = [];
  /** When each waiting job was queued, by key, oldest first (insertion order). */
  const waitingSince = new Map<string, number>();
  let adapters: Map<string, ChannelAdapter> | undefined;
  let slots = 0;
  let running = 0;

  const adapterOf = (platform: string): ChannelAdapter => {
    adapters ??= new Map();
    let adapter = adapters.get(platform);
    if (adapter === undefined) {
      adapter = (config.adapters[platform] as OutboxConfig["adapters"][string])({
        store: createMemoryStore(),
        pacing: {},
      });
      adapters.set(platform, adapter);
    }
    return adapter;
  };

  const pump = (): void => {
    while (running < slots && ready.size > 0) {
      const lane = ready.shift() as string;
      const queue = lanes.get(lane) as Fifo<JobData>;
      const job = queue.peek() as JobData;
      running += 1;
      waitingSince.delete(job.key);
      runJob(job.key, job, adapterOf(job.platform), (ms) => systemClock.sleep(ms)).then((receipt) => {
        running -= 1;
        results.set(receipt.id, receipt);
        if (receipt.status === "dead") dead.unshift(receipt);
        queue.shift();
        if (queue.size > 0) ready.push(lane);
        else lanes.delete(lane);
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
        const lane = `${platform}\u0000${target.to}`;
        let queue = lanes.get(lane);
        if (queue === undefined) {
          queue = new Fifo();
          lanes.set(lane, queue);
          ready.push(lane);
        }
        queue.push(trace === undefined ? job : { ...job, trace });
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
    async close() {
      for (const adapter of adapters?.values() ?? []) await adapter.close?.();
    },
  };
}
