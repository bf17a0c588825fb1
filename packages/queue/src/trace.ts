/**
 * What the queue tells observers, on Node's diagnostics channels as the engine does
 * (`OUTBOX_CHANNELS` of `@outbox/core`): an enqueue, whose subscriber may write the trace
 * context into the message's carrier (kept in the job), and each run of a job in a worker,
 * which hands that carrier back, so one trace goes from the producer to the platform across
 * processes. Nothing is published while no one listens.
 */
import { tracingChannel } from "node:diagnostics_channel";
import { type EnqueueTrace, type JobTrace, OUTBOX_CHANNELS } from "@outbox/core";
import { traced } from "@outbox/core/internal";
import type { QueuedReceipt } from "./types.js";

const enqueueChannel = tracingChannel<unknown, EnqueueTrace>(OUTBOX_CHANNELS.enqueue);
const jobChannel = tracingChannel<unknown, JobTrace>(OUTBOX_CHANNELS.job);

/**
 * Run an enqueue traced: `fn` gets the carrier a subscriber filled (absent when none did, so
 * a job carries no empty field).
 */
export function tracedEnqueue<T extends { id: string }>(
  platform: string,
  to: string | undefined,
  fn: (carrier: Record<string, string> | undefined) => Promise<T>,
): Promise<T> {
  if (!enqueueChannel.start.hasSubscribers) return fn(undefined);
  const message: EnqueueTrace = { platform, to: String(to ?? ""), carrier: {} };
  return enqueueChannel.tracePromise(
    () => fn(Object.keys(message.carrier).length === 0 ? undefined : message.carrier),
    message,
  );
}

/** Run a job traced, handing the subscriber the carrier its producer wrote. */
export function tracedJob(message: () => JobTrace, fn: () => Promise<QueuedReceipt>): Promise<QueuedReceipt> {
  return traced(jobChannel, message, fn);
}
