/** Where an outbox keeps things in Redis, and which partition a target belongs to. */
import { createHash } from "node:crypto";
import { Redis, type RedisOptions } from "ioredis";

/** Key names of one outbox (BullMQ's own keys are under `<prefix>:p<n>:`). */
export function keysOf(prefix: string) {
  const own = `${prefix}:_`;
  return {
    /** Partition count every process must agree on. */
    partitions: `${own}:partitions`,
    /** A finished job's {@link QueuedReceipt}. */
    result: (id: string) => `${own}:result:${id}`,
    /** The delivery journal of an idempotency key. */
    journal: (key: string) => `${own}:journal:${key}`,
    /** A token bucket. */
    bucket: (platform: string, rule: number, to?: string) =>
      `${own}:rate:${platform}:${rule}${to === undefined ? "" : `:${to}`}`,
    /** Ids of dead-lettered jobs, newest first. */
    dead: `${own}:dead`,
    /** Pub/sub channel of finished deliveries (settles `receipt` waits). */
    finished: `${own}:finished`,
    /** Stream of finished deliveries (the `finished` and `dead` events, read on from where a reader stopped). */
    events: `${own}:events`,
    /** Partition `n`'s turns: its round, each account's last turn, each waiting job's turn. */
    turns: (n: number) => `${own}:turns:${n}`,
    /** Partition `n`'s paused (or resuming) accounts. */
    paused: (n: number) => `${own}:paused:${n}`,
    /**
     * Jobs of a paused account in partition `n`: taken from the partition while it was paused
     * (`drained`, the older) or queued while it was paused (`parked`).
     */
    held: (n: number, scope: string, kind: "drained" | "parked") => `${own}:held:${n}:${kind}:${scope}`,
  };
}

/** The BullMQ queue name of partition `n`. */
export const partitionQueue = (n: number): string => `p${n}`;

/** The partition of a target: FNV-1a of platform and chat, modulo the partition count. */
export function partitionOf(platform: string, to: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const char of `${platform}\u0000${to}`) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

/** BullMQ's job id of a delivery key (BullMQ refuses ids with `:` or made of digits only). */
export const jobIdOf = (key: string): string =>
  `j${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;

/**
 * A Redis connection. Commands wait through a reconnection instead of failing (BullMQ needs
 * `maxRetriesPerRequest: null`), so a restarted Redis delays deliveries but loses none.
 */
export function connect(connection: string | RedisOptions): Redis {
  const redis =
    typeof connection === "string"
      ? new Redis(connection, { maxRetriesPerRequest: null })
      : new Redis({ ...connection, maxRetriesPerRequest: null });
  // Connection errors are followed by reconnection (commands wait for it); the outbox's
  // health reports them once per change (never printed, never an unhandled `error` event).
  redis.on("error", () => undefined);
  return redis;
}
