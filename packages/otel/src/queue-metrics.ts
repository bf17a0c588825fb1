/**
 * The queue's gauges (docs/operations.md, "Metrics"): jobs waiting and running, the oldest
 * waiting job's age, receipts awaited. Read from `Outbox.stats()` once per collection.
 */
import { type BatchObservableResult, type MeterProvider, metrics } from "@opentelemetry/api";
import { SCOPE_NAME, SCOPE_VERSION } from "./scope.js";

/** What the gauges read: `Outbox.stats()` of `@outbox/queue`. */
export interface QueueStatsSource {
  /** The queue's figures now. */
  stats(): Promise<{
    waiting: number;
    active: number;
    delayed: number;
    oldestWaitingMs: number;
    receiptsPending: number;
  }>;
}

/** Options of {@link observeQueue}. */
export interface ObserveQueueOptions {
  /** Where the gauges go. Default: the global meter provider. */
  meterProvider?: MeterProvider;
}

/**
 * Report an outbox's depth as gauges, read at each metrics collection (one `stats()` call for
 * all of them). Returns the function that stops reporting.
 */
export function observeQueue(outbox: QueueStatsSource, options: ObserveQueueOptions = {}): () => void {
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE_NAME, SCOPE_VERSION);
  const depth = meter.createObservableGauge("outbox.queue.jobs", {
    description: "Jobs in the queue by state (waiting, active, delayed)",
    unit: "{job}",
  });
  const oldest = meter.createObservableGauge("outbox.queue.oldest_waiting", {
    description: "Age of the oldest job no worker has taken yet",
    unit: "s",
  });
  const pending = meter.createObservableGauge("outbox.receipts.pending", {
    description: "Receipts this process awaits (receipt() calls not yet settled)",
    unit: "{receipt}",
  });
  const observe = async (result: BatchObservableResult): Promise<void> => {
    const stats = await outbox.stats();
    result.observe(depth, stats.waiting, { "outbox.queue.state": "waiting" });
    result.observe(depth, stats.active, { "outbox.queue.state": "active" });
    result.observe(depth, stats.delayed, { "outbox.queue.state": "delayed" });
    result.observe(oldest, stats.oldestWaitingMs / 1000);
    result.observe(pending, stats.receiptsPending);
  };
  meter.addBatchObservableCallback(observe, [depth, oldest, pending]);
  return () => meter.removeBatchObservableCallback(observe, [depth, oldest, pending]);
}
