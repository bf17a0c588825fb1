/**
 * A queued delivery: what a job holds (JSON, references only), the checks made before it is
 * queued, and running it (attempts with backoff around the engine's once-only send).
 */
import { randomUUID } from "node:crypto";
import {
  type ChannelAdapter,
  type DeliveryReceipt,
  isAmbiguous,
  normalizePayload,
  type OutboxError,
  PayloadError,
  RateLimitedError,
  type ReplyPayloadInput,
  StoreError,
  type Target,
  TransportError,
} from "@outbox/core";
import { DEFAULT_ACCOUNT } from "./adapter-pool.js";
import { tracedJob } from "./trace.js";
import type { AccountRef, DeliveryStatus, EnqueueOptions, QueuedReceipt } from "./types.js";

/** What a job holds: the reply as the producer gave it, with references instead of bytes. */
export interface JobData {
  /** Platform name (a key of `adapters`, or a platform of `accounts`). */
  platform: string;
  /** The account that sends it; absent for `default`. */
  account?: string;
  /** The reply. */
  payload: ReplyPayloadInput;
  /** Where it goes. */
  target: Target;
  /** The delivery's idempotency key (the job id). */
  key: string;
  /** Reply mode of the send. */
  replyMode?: EnqueueOptions["replyMode"];
  /** Attempts before dead-lettering; absent for the default (a queued job is smaller). */
  attempts?: number;
  /** First backoff in milliseconds; absent for the default. */
  backoffMs?: number;
  /** The producer's trace context (W3C `traceparent`, …), when a tracer was listening at enqueue. */
  trace?: Record<string, string>;
}

const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF_MS = 1000;

/**
 * Check a reply before it is queued and build its job: the platform must be known, the
 * payload valid (`PayloadError`, as `send` would throw) and its media references, not bytes.
 */
export function toJob(
  platforms: readonly string[],
  platform: string,
  payload: ReplyPayloadInput,
  target: Target,
  options: EnqueueOptions = {},
): JobData {
  const issue = (path: Array<string | number>, message: string) =>
    new PayloadError(`${path.join(".")}: ${message}`, [{ path, message, code: "custom" }]);
  if (!platforms.includes(platform))
    throw issue(
      ["platform"],
      `no adapter named ${JSON.stringify(platform)}; configured: ${platforms.join(", ")}`,
    );
  const { account } = options;
  if (account !== undefined && (typeof account !== "string" || account === ""))
    throw issue(["account"], "must be a non-empty string (the bot's id), or absent for the default account");
  if (typeof target?.to !== "string" || target.to === "")
    throw issue(["target", "to"], "must be a non-empty string");
  for (const [index, item] of (payload.media ?? []).entries())
    if (item.data !== undefined || item.base64 !== undefined)
      throw issue(
        ["media", index, item.data === undefined ? "base64" : "data"],
        "queued replies hold references, not bytes: write the file and pass `filePath` (the worker loads it under its media policy)",
      );
  normalizePayload(payload);
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  if (!Number.isInteger(attempts) || attempts < 1)
    throw issue(["attempts"], "must be an integer of at least 1");
  const backoffMs = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  if (!(backoffMs >= 0)) throw issue(["backoffMs"], "must be a number of milliseconds, 0 or more");
  return {
    platform,
    ...(account === undefined || account === DEFAULT_ACCOUNT ? {} : { account }),
    payload,
    target,
    key: options.idempotencyKey ?? randomUUID(),
    ...(options.replyMode === undefined ? {} : { replyMode: options.replyMode }),
    ...(attempts === DEFAULT_ATTEMPTS ? {} : { attempts }),
    ...(backoffMs === DEFAULT_BACKOFF_MS ? {} : { backoffMs }),
  };
}

/** Why a job whose journal could not be saved is not attempted again. */
const NOT_RETRIED =
  "; not attempted again: the journal could not be saved, so another attempt could resend delivered parts";

/** A failure another attempt may fix: a 429 beyond the engine's retries, or a network failure before sending. */
function transient(error: OutboxError): boolean {
  return (
    error instanceof RateLimitedError ||
    error instanceof StoreError ||
    (error instanceof TransportError && !isAmbiguous(error))
  );
}

/**
 * Deliver a job: `send` with the job's key (parts already in the journal are skipped, a part
 * a crashed worker was sending is ambiguous), again after a backoff while every failure is
 * transient, up to the job's attempts. `sleep` waits between attempts. A journal that could
 * not be saved ends the job after this attempt (another could resend delivered parts). With
 * `signal` aborted (the worker lost the job), the abort reason is thrown: no receipt.
 */
export function runJob(
  id: string,
  job: JobData,
  adapter: ChannelAdapter,
  sleep: (ms: number) => Promise<void>,
  previousAttempts = 0,
  signal?: AbortSignal,
): Promise<QueuedReceipt> {
  return tracedJob(
    () => ({ id, platform: job.platform, to: job.target.to, previousAttempts, carrier: job.trace }),
    () => attemptJob(id, job, adapter, sleep, previousAttempts, signal),
  );
}

/** {@link runJob}'s attempts. */
async function attemptJob(
  id: string,
  job: JobData,
  adapter: ChannelAdapter,
  sleep: (ms: number) => Promise<void>,
  previousAttempts: number,
  signal: AbortSignal | undefined,
): Promise<QueuedReceipt> {
  const base = receiptBase(id, job);
  let attempts = previousAttempts;
  for (;;) {
    attempts += 1;
    let receipt: DeliveryReceipt;
    try {
      receipt = await adapter.send(job.payload, job.target, {
        idempotencyKey: job.key,
        ...(job.replyMode === undefined ? {} : { replyMode: job.replyMode }),
        ...(signal === undefined ? {} : { signal }),
      });
    } catch (error) {
      signal?.throwIfAborted();
      // Thrown before anything was sent (invalid payload, key reused): no attempt can fix it.
      return deadReceipt(id, job, attempts, reasonOf(error));
    }
    const unsaved = receipt.degraded.some((entry) => entry.from === "journal");
    const retry =
      !unsaved && receipt.failures.length > 0 && receipt.failures.every(({ error }) => transient(error));
    if (retry && attempts < attemptsOf(job)) {
      await sleep((job.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (attempts - 1 - previousAttempts));
      continue;
    }
    const status: DeliveryStatus = receipt.ok ? "delivered" : retry ? "dead" : "failed";
    const first = receipt.failures[0];
    return {
      ...base,
      status,
      attempts,
      ...(first === undefined
        ? {}
        : {
            reason: `${retry ? `gave up after ${attempts} attempts: ` : ""}part ${first.part}: ${first.error.message}${unsaved ? NOT_RETRIED : ""}`,
          }),
      receipt: toQueuedReceipt(receipt),
    };
  }
}

/**
 * The receipt as plain JSON: each failure entry keeps what it says of the part (`content`,
 * `ambiguous`, `retryable`, `action`), its error becomes `{ code, message, ambiguous }`.
 */
export function toQueuedReceipt(receipt: DeliveryReceipt): NonNullable<QueuedReceipt["receipt"]> {
  return {
    ...receipt,
    failures: receipt.failures.map(({ error, ...entry }) => ({
      ...entry,
      error: { code: error.code, message: error.message, ambiguous: isAmbiguous(error) },
    })),
  };
}

/** The receipt of a job dead-lettered before or instead of a delivery attempt. */
export function deadReceipt(id: string, job: JobData, attempts: number, reason: string): QueuedReceipt {
  return { ...receiptBase(id, job), status: "dead", attempts, reason };
}

/** What every receipt of a job says of it: id, platform, account (unless default), target. */
function receiptBase(
  id: string,
  job: JobData,
): Pick<QueuedReceipt, "id" | "platform" | "account" | "target"> {
  return {
    id,
    platform: job.platform,
    ...(job.account === undefined ? {} : { account: job.account }),
    target: job.target,
  };
}

/** The attempts a job may make. */
export const attemptsOf = (job: JobData): number => job.attempts ?? DEFAULT_ATTEMPTS;

/** The account a job names. */
export const accountOf = (job: JobData): AccountRef => ({
  platform: job.platform,
  account: job.account ?? DEFAULT_ACCOUNT,
});

/** A thrown error's message (engine errors are already redacted). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
