/**
 * Public types of `@outbox/queue` (see docs/scale.md).
 */
import type {
  ChannelAdapter,
  Clock,
  DeliveryReceipt,
  DeliveryStore,
  PacingOptions,
  ReceiptFailure,
  ReplyPayloadInput,
  SendOptions,
  Target,
} from "@outbox/core";
import type { Cluster, ClusterNode, ClusterOptions, RedisOptions } from "ioredis";

/** What the queue hands an adapter factory: the journal store and pacing every worker shares. */
export interface AdapterServices {
  /** Journal for once-only delivery: in Redis with a connection (write-ahead), else in memory. */
  store: DeliveryStore;
  /** Pacing whose `gate` keeps every worker process together within the platform's `rateLimits`. */
  pacing: PacingOptions;
}

/**
 * Builds one platform's adapter with the queue's services, e.g.
 * `(services) => createTelegramAdapter({ token, ...services })`. Called once per worker.
 */
export type AdapterFactory = (services: AdapterServices) => ChannelAdapter;

/** A Redis Cluster to queue on: some of its nodes (the others are discovered) and ioredis's options. */
export interface ClusterConnection {
  /** Startup nodes, e.g. `[{ host: "10.0.0.1", port: 6379 }]` or `["redis://10.0.0.1:6379"]`. */
  cluster: ClusterNode[];
  /** ioredis's cluster options (`redisOptions.maxRetriesPerRequest` is always `null`: BullMQ needs it). */
  options?: ClusterOptions;
}

/**
 * Where an outbox's Redis is: a `redis://` URL or ioredis options (one Redis), a cluster's
 * nodes or an ioredis `Cluster` (a Redis Cluster; the outbox opens its own connections from
 * its settings and never uses or closes the instance itself).
 */
export type RedisConnection = string | RedisOptions | ClusterConnection | Cluster;

/** A bot: the account `enqueue` names on a platform (`default` when it names none). */
export interface AccountRef {
  /** Platform name (`telegram`, `slack`, …). */
  platform: string;
  /** The integrator's id of the bot on that platform. */
  account: string;
}

/**
 * Adapters of many bots, resolved while running (e.g. from the integrator's database): each
 * worker resolves an account on its first job, keeps the adapter while it is used and closes
 * it once idle for `idleMs`.
 */
export interface AccountResolver {
  /** Platforms whose accounts this resolves (`enqueue` refuses other platforms before queueing). */
  platforms: readonly string[];
  /**
   * Build the adapter of an account with the queue's services, e.g.
   * `async ({ account }, services) => createTelegramAdapter({ token: await tokenOf(account), ...services })`.
   * `undefined` when there is no such account (its jobs end `dead`, saying so).
   */
  resolve(account: AccountRef, services: AdapterServices): Promise<ChannelAdapter | undefined>;
  /** Milliseconds an unused account's adapter is kept before it is closed. Default 600 000. */
  idleMs?: number;
  /** The clock idleness is measured on (tests inject one). Default: the system clock. */
  clock?: Clock;
}

/** Options of {@link createOutbox}. */
export interface OutboxConfig {
  /**
   * Adapter factories by platform name (`telegram`, `slack`, …): each platform's `default`
   * account (a job that names no account). `{}` when `accounts` resolves every bot.
   */
  adapters: Record<string, AdapterFactory>;
  /** Adapters resolved per account while running (bots added at run time). */
  accounts?: AccountResolver;
  /**
   * Redis to queue on: one Redis (a `redis://` URL or ioredis options) or a Redis Cluster
   * (its nodes, or an ioredis `Cluster`; see docs/scale.md). Absent: the embedded default,
   * in this process, same API, nothing survives the process.
   */
  connection?: RedisConnection;
  /**
   * Key prefix in Redis, so several outboxes can share one server. Default `outbox`. On a
   * Redis Cluster without `{` or `}`: the outbox places the hash tags itself.
   */
  prefix?: string;
  /**
   * Number of partitions: a target always lands in the partition of its hash, and one job of a
   * partition runs at a time across every worker (per-target order). Every process of one
   * outbox must use the same number (checked against Redis). Default 32.
   */
  partitions?: number;
  /** Seconds a finished job's result and its journal stay in Redis. Default 7 days. */
  retentionSeconds?: number;
}

/** Options of {@link Outbox.enqueue}. */
export interface EnqueueOptions {
  /**
   * The bot that sends it: `accounts.resolve` builds its adapter (the platform's `adapters`
   * factory for `default`). Accounts take turns: one account's backlog delays another's reply
   * by at most one job per partition (Redis) or worker slot (in process). Default `default`.
   */
  account?: string;
  /**
   * Makes enqueueing idempotent: the same key returns the same job instead of queueing a
   * second one; it is also the delivery's `idempotencyKey`. Default: a fresh id.
   */
  idempotencyKey?: string;
  /** Which operations carry the reply reference. Default `first`. */
  replyMode?: SendOptions["replyMode"];
  /** Attempts of the whole delivery before it is dead-lettered (only transient failures are retried). Default 3. */
  attempts?: number;
  /** First wait between attempts in milliseconds; doubles after each. Default 1000. */
  backoffMs?: number;
}

/** How a queued delivery ended. */
export type DeliveryStatus =
  /** Every part delivered. */
  | "delivered"
  /** Finished with parts not delivered for reasons a retry cannot fix (listed in the receipt). */
  | "failed"
  /** Dead-lettered: attempts exhausted on transient failures, or the job could not run at all. */
  | "dead";

/** An error in a queued receipt: what a receipt's `OutboxError` keeps through Redis. */
export interface QueuedError {
  /** The error's stable code (`RATE_LIMITED`, `TRANSPORT`, …). */
  code: string;
  /** Its message (secrets already redacted by the engine). */
  message: string;
  /** The part may have been delivered (a retry would resend it only with `retryAmbiguous`). */
  ambiguous: boolean;
}

/**
 * A failure entry in a queued receipt: the engine's entry (what the part held, whether it may
 * have been delivered, whether a resend is safe, what to do) with its error reduced to
 * {@link QueuedError}.
 */
export type QueuedFailure = Omit<ReceiptFailure, "error"> & { error: QueuedError };

/** The receipt of a queued delivery, plain JSON (it crosses Redis). */
export interface QueuedReceipt {
  /** The job id `enqueue` returned. */
  id: string;
  /** Platform name. */
  platform: string;
  /** The account that sent it, when not `default`. */
  account?: string;
  /** Where it went. */
  target: Target;
  /** How it ended. */
  status: DeliveryStatus;
  /** Attempts made (a crashed worker's attempt included once it was picked up again). */
  attempts: number;
  /** Why it is not `delivered` (the first failure, or what stopped the job). */
  reason?: string;
  /** The engine's receipt, failures as {@link QueuedFailure}; absent when nothing ran. */
  receipt?: Omit<DeliveryReceipt, "failures"> & { failures: QueuedFailure[] };
}

/** Redis went away or came back (Redis mode), as seen by this process's connections. */
export interface RedisStateChange {
  /** `down`: a connection failed (commands wait for the reconnection); `up`: connected again. */
  state: "down" | "up";
  /** With `down`: what failed (e.g. `connect ECONNREFUSED 127.0.0.1:6379`). */
  error?: string;
}

/** Events an outbox emits. */
export interface OutboxEvents {
  /**
   * A delivery finished (any status). In Redis mode this comes over pub/sub: a result
   * published while this process's subscription was down is not announced (its `receipt`
   * still settles).
   */
  finished: (receipt: QueuedReceipt) => void;
  /** A delivery was dead-lettered (announced as `finished` is). */
  dead: (receipt: QueuedReceipt) => void;
  /**
   * Redis mode: the connection state changed, once per change (nothing is printed to stderr;
   * listen here to log outages).
   */
  redis: (change: RedisStateChange) => void;
}

/** A step of a delivery inside a worker, for tracing (and for tests that stop a worker at one). */
export interface DeliveryStep {
  /**
   * `pace`: about to wait for the shared rate limit (a token); `journal`: about to save the
   * journal; `send`: the part's `sending` mark is saved and its platform call is about to go;
   * `journaled`: the journal after a part is saved.
   */
  kind: "pace" | "journal" | "journaled" | "send";
  /** The job. */
  id: string;
  /** `pace` and `send`: the plan part whose request waits or is about to go. */
  part?: number;
  /** `pace`: 0 for the part's first request, then 1, 2… for each retry (after a 429, say). */
  attempt?: number;
}

/** Options of {@link Outbox.createWorker}. */
export interface WorkerOptions {
  /**
   * In-process outbox only: chats this worker serves at once. Default 8. On Redis a worker
   * takes at most one job per partition at a time (so up to `partitions`); scale with processes.
   */
  concurrency?: number;
  /**
   * Milliseconds a job stays locked to this worker without renewal (renewed every half);
   * a worker that died is noticed after this long and its job goes to another. Default 30 000.
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs of dead workers, in milliseconds. Default 15 000. */
  stalledIntervalMs?: number;
  /** Called at each step of a delivery, synchronously, before it happens. */
  onStep?: (step: DeliveryStep) => void;
}

/** A running worker. */
export interface OutboxWorker {
  /** Finish the jobs in hand, take no more, release connections. */
  close(): Promise<void>;
}

/** How full the queue is now, for metrics (docs/operations.md). */
export interface OutboxStats {
  /** Jobs queued and not yet taken by a worker. */
  waiting: number;
  /** Jobs a worker is running (their backoff between attempts included). */
  active: number;
  /** Redis mode: jobs waiting for a time (BullMQ's delayed jobs); 0 in process. */
  delayed: number;
  /** Milliseconds the oldest waiting job has waited; 0 when none waits. */
  oldestWaitingMs: number;
  /** Receipts this process awaits (`receipt` calls not yet settled). */
  receiptsPending: number;
}

/** The queue: what producers and workers share. */
export interface Outbox {
  /** `redis` with a connection, else `in-process`. */
  readonly mode: "redis" | "in-process";
  /**
   * Queue a reply. The payload is checked now (a `PayloadError` before anything is queued);
   * media must be references (paths or URLs, loaded by the worker), never inline bytes.
   */
  enqueue(
    platform: string,
    payload: ReplyPayloadInput,
    target: Target,
    options?: EnqueueOptions,
  ): Promise<{ id: string }>;
  /**
   * The receipt of a job, once it finished (waits for it). In Redis mode it settles even when
   * the result was published while this process was disconnected: the result is looked up
   * again on every reconnection and every 10 s while receipts wait.
   */
  receipt(id: string, options?: { signal?: AbortSignal }): Promise<QueuedReceipt>;
  /** Listen to an event; returns a function that stops listening. */
  on<E extends keyof OutboxEvents>(event: E, listener: OutboxEvents[E]): () => void;
  /**
   * How many jobs wait and run, how long the oldest has waited, and how many receipts this
   * process awaits. In Redis mode a few commands per partition: call it every few seconds, not
   * per job.
   */
  stats(): Promise<OutboxStats>;
  /**
   * Pause an account: its jobs stay queued (and new ones are accepted) but none starts until
   * {@link Outbox.resumeAccount}; a job already running finishes. Nothing is lost, per-chat
   * order holds. Other accounts are not delayed.
   */
  pauseAccount(platform: string, account: string): Promise<void>;
  /** Resume a paused account: its waiting jobs go out in their order, taking turns as before. */
  resumeAccount(platform: string, account: string): Promise<void>;
  /** Dead-lettered receipts, newest first (at most `limit`, default 100). */
  deadLetters(limit?: number): Promise<QueuedReceipt[]>;
  /** Start a worker delivering this outbox's jobs (in this process). */
  createWorker(options?: WorkerOptions): Promise<OutboxWorker>;
  /** Release connections (workers are closed separately). */
  close(): Promise<void>;
}
