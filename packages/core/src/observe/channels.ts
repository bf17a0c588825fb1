/**
 * What a delivery tells observers, on Node's diagnostics channels: a tracer or a metrics
 * library subscribes (as `@outbox/otel` does), and nothing is built or published while no one
 * does. Messages carry no message text, media, token or URL: the target's id is there for an
 * observer to hash, and outcomes as the engine's own results (receipts, errors already
 * redacted). Channel names are public and stable (docs/operations.md).
 */
import { channel, type TracingChannel, tracingChannel } from "node:diagnostics_channel";
import type { DeliveryReceipt, RequestCounts, SentMessage } from "../adapter/types.js";
import type { OutboxError } from "../errors/errors.js";
import type { AgentRunReceipt } from "../stream/run-types.js";

/** A `send` (its `result` is the receipt, set by Node when it settles; `error` when it threw). */
export interface SendTrace {
  /** The adapter's platform name. */
  platform: string;
  /** The chat's id (`Target.to`): an observer redacts it before recording it. */
  to: string;
  /** The receipt, once the send resolved. */
  result?: DeliveryReceipt;
  /** What the send threw (a `PayloadError` before any network call, a cancellation…). */
  error?: unknown;
}

/** A `deliverAgentRun` (its `result` is the run's combined receipt). */
export interface AgentRunTrace {
  /** The adapter's platform name. */
  platform: string;
  /** The chat's id, for an observer to redact. */
  to: string;
  /** The run's combined receipt, once it settled. */
  result?: AgentRunReceipt;
  /** What the run threw. */
  error?: unknown;
}

/** One plan part of a send, from its first attempt to its outcome. */
export interface PartTrace {
  /** Index of the part in the plan. */
  part: number;
  /** What the part carries, or does (an edit or a delete, where a live preview settles). */
  type: "text" | "media" | "album" | "edit" | "delete";
  /** The message of the send it belongs to (its {@link SendTrace}), for an observer to find its span. */
  parent?: object;
  /** The part's result: `error` absent when it was delivered. */
  result?: { error?: OutboxError };
  /** What delivering it threw (a cancellation). */
  error?: unknown;
}

/** One attempt of one platform call (a send or an edit), after its pacing wait. */
export interface CallTrace {
  /** The chat's id, for an observer to redact. */
  to: string;
  /** The plan part it sends, when it sends one. */
  part?: number;
  /** 0 for the first request of the operation, then 1, 2… for each retry. */
  attempt: number;
  /** The kind of send the platform's limits count it as, when known. */
  kind?: keyof RequestCounts;
  /**
   * The message of the operation it is made for: its part's {@link PartTrace} (or its send's
   * {@link SendTrace}); absent for a call outside any send (a live preview's own message).
   */
  parent?: object;
  /** The platform's answer. */
  result?: SentMessage;
  /** Why it failed (an `OutboxError` from the transport, or whatever it threw). */
  error?: unknown;
}

/**
 * A wait before a call: for the pacer's token (published only when the pacer held the call),
 * or the Retry-After a 429 asked for.
 */
export interface WaitNote {
  /** The chat's id, for an observer to redact. */
  to: string;
  /** The plan part that waits, when one does. */
  part?: number;
  /** The attempt that waits (a Retry-After is waited by the next one). */
  attempt: number;
  /** `pacing`: waited for the rate limiter's token; `retry-after`: a 429 asked for this wait. */
  reason: "pacing" | "retry-after";
  /** Milliseconds waited (pacing) or asked for (retry-after). */
  ms: number;
  /** The message of the operation that waits, as a {@link CallTrace}'s `parent`. */
  parent?: object;
}

/** An `enqueue` of `@outbox/queue`: a subscriber writes the trace context to carry into `carrier`. */
export interface EnqueueTrace {
  /** Platform name. */
  platform: string;
  /** The chat's id, for an observer to redact. */
  to: string;
  /** Filled by a subscriber at start (W3C `traceparent`, …); stored with the job when not empty. */
  carrier: Record<string, string>;
  /** What enqueue resolved with. */
  result?: { id: string };
  /** What it threw (a `PayloadError` before anything was queued). */
  error?: unknown;
}

/** One run of a queued job by a worker (its attempts in that worker). */
export interface JobTrace {
  /** The job id (its idempotency key): an observer hashes it. */
  id: string;
  /** Platform name. */
  platform: string;
  /** The chat's id, for an observer to redact. */
  to: string;
  /** Attempts made before this run (by a worker that crashed or lost the job). */
  previousAttempts: number;
  /** The carrier written at enqueue, when there was one. */
  carrier: Record<string, string> | undefined;
  /** The job's receipt: how it ended. */
  result?: { status: "delivered" | "failed" | "dead"; attempts: number };
  /** What the run threw (the worker lost the job). */
  error?: unknown;
}

/**
 * The channels' names. `send`, `agentRun`, `part` and `call` are tracing channels
 * (`tracing:outbox:send:start`, …, with {@link SendTrace} and the others as their messages);
 * `wait` is a plain channel of {@link WaitNote}s. `@outbox/queue` publishes `enqueue` and `job`
 * (tracing channels of {@link EnqueueTrace} and {@link JobTrace}).
 */
export const OUTBOX_CHANNELS = {
  send: "outbox:send",
  agentRun: "outbox:agent-run",
  part: "outbox:part",
  call: "outbox:call",
  wait: "outbox:wait",
  enqueue: "outbox:enqueue",
  job: "outbox:job",
} as const;

/** A `send`, from its call to its receipt. */
export const sendChannel = tracingChannel<unknown, SendTrace>(OUTBOX_CHANNELS.send);
/** A `deliverAgentRun`, from its call to its combined receipt. */
export const agentRunChannel = tracingChannel<unknown, AgentRunTrace>(OUTBOX_CHANNELS.agentRun);
/** One plan part. */
export const partChannel = tracingChannel<unknown, PartTrace>(OUTBOX_CHANNELS.part);
/** One platform call attempt. */
export const callChannel = tracingChannel<unknown, CallTrace>(OUTBOX_CHANNELS.call);
/** Waits before calls (a plain channel: one message per wait). */
export const waitChannel = channel(OUTBOX_CHANNELS.wait);

/**
 * Run `fn` traced on `on` with `message` made only when someone listens: without a
 * subscriber this is one property read. `fn` gets the message published (none without a
 * subscriber), to hand to the operations it runs as their `parent`: an observer links them
 * by it, with no async context to carry.
 */
export function traced<M extends object, T>(
  on: TracingChannel<unknown, M>,
  message: () => M,
  fn: (published?: M) => Promise<T>,
): Promise<T> {
  if (!on.start.hasSubscribers) return fn();
  const published = message();
  return on.tracePromise(() => fn(published), published);
}

/** Publish a wait (pacing or Retry-After) when someone listens. */
export function noteWait(note: () => WaitNote): void {
  if (waitChannel.hasSubscribers) waitChannel.publish(note());
}
