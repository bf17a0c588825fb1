/** Where an outbox keeps things in Redis, and which partition a target belongs to. */
import { createHash } from "node:crypto";
import { Cluster, type ClusterOptions, Redis } from "ioredis";
import type { ClusterConnection, RedisConnection } from "../types.js";

/** A connection to a single Redis or to a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** Whether `connection` names a Redis Cluster. */
export const isCluster = (connection: RedisConnection): connection is ClusterConnection | Cluster =>
  connection instanceof Cluster || (typeof connection === "object" && "cluster" in connection);

/**
 * Key names of one outbox. BullMQ's own keys are under `<prefix>:<queue>:`. With `tags` (on
 * a Redis Cluster: one hash tag per partition, see `partitionTags`) every key a script or
 * transaction touches together shares a slot: a partition's queue and journals carry its tag,
 * a platform's rate buckets the platform's name. Without, the names of a single Redis.
 */
export function keysOf(prefix: string, tags?: readonly string[]) {
  const own = `${prefix}:_`;
  const tagOf = (partition: number | undefined): string =>
    tags === undefined || partition === undefined ? "" : `{${tags[partition]}}:`;
  // A name in braces is the hash tag; `rate:` first keeps it non-empty whatever the platform's name.
  const rate = (platform: string): string => (tags === undefined ? `rate:${platform}` : `{rate:${platform}}`);
  return {
    /** The BullMQ queue name of partition `n`. */
    queue: (n: number): string => `p${n}${tags === undefined ? "" : `{${tags[n]}}`}`,
    /** Partition count every process must agree on and the {@link Partitioning}: `32 mixed` (a count alone: `fnv`). */
    partitions: `${own}:partitions`,
    /** A finished job's {@link QueuedReceipt}. */
    result: (id: string) => `${own}:result:${id}`,
    /** The delivery journal of an idempotency key, in the slot of the partition its job runs in. */
    journal: (key: string, partition?: number) => `${own}:journal:${tagOf(partition)}${key}`,
    /** A token bucket (a platform's buckets share a slot: one script takes several). */
    bucket: (platform: string, rule: number, to?: string) =>
      `${own}:${rate(platform)}:${rule}${to === undefined ? "" : `:${to}`}`,
    /** Ids of dead-lettered jobs, newest first. */
    dead: `${own}:dead`,
    /** Pub/sub channel of finished deliveries (settles `receipt` waits). */
    finished: `${own}:finished`,
    /** Stream of finished deliveries (the `finished` and `dead` events, read on from where a reader stopped). */
    events: `${own}:events`,
    /** Partition `n`'s turns (on a cluster in the partition's slot, as its paused and held lists): its round, each account's last turn, each waiting job's turn. */
    turns: (n: number) => `${own}:turns:${tagOf(n)}${n}`,
    /** Partition `n`'s paused (or resuming) accounts. */
    paused: (n: number) => `${own}:paused:${tagOf(n)}${n}`,
    /**
     * Jobs of a paused account in partition `n`: taken from the partition while it was paused
     * (`drained`, the older) or queued while it was paused (`parked`).
     */
    held: (n: number, scope: string, kind: "drained" | "parked") =>
      `${own}:held:${tagOf(n)}${n}:${kind}:${scope}`,
  };
}

/**
 * How targets are spread over the partitions; every producer of an outbox must use the same,
 * so it is kept in Redis with the partition count. `fnv`, releases before `mixed` came: FNV-1a
 * modulo the count, whose low bits hardly mix, so similar ids crowd a few partitions (100
 * bots, each with its own chat, on 32 partitions: 13 partitions empty, one with 15 bots).
 * `mixed`: FNV-1a through murmur3's 32-bit finalizer, then modulo (the same 100 bots: none
 * empty, at most 7 in one).
 */
export type Partitioning = "fnv" | "mixed";

/** The partition of a target: the hash of platform and chat, modulo the partition count. */
export function partitionOf(
  platform: string,
  to: string,
  partitions: number,
  partitioning: Partitioning = "mixed",
): number {
  let hash = 0x811c9dc5;
  for (const char of `${platform}\u0000${to}`) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  if (partitioning === "mixed") {
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    hash = (hash ^ (hash >>> 16)) >>> 0;
  }
  return hash % partitions;
}

/**
 * BullMQ's job id of a delivery key (BullMQ refuses ids with `:` or made of digits only): 120
 * bits of its SHA-256 in base64url after a `j`, 21 characters. The id is in a queued job's
 * hash name, its options, its place in the partition and its turn, so its length counts in
 * every waiting reply; jobs an earlier release queued keep their longer ids (40 hex digits).
 */
export const jobIdOf = (key: string): string =>
  `j${createHash("sha256").update(key).digest().subarray(0, 15).toString("base64url")}`;

/**
 * How a cluster connection's commands wait for a master that went away: asked again every
 * 100 ms, up to 600 times (a minute), like a single Redis's commands wait for its restart.
 */
const CLUSTER_WAITS: ClusterOptions = {
  maxRedirections: 600,
  retryDelayOnFailover: 100,
  retryDelayOnClusterDown: 100,
  retryDelayOnTryAgain: 100,
};

/**
 * A Redis connection (a new one; an ioredis `Cluster` given is duplicated, never used
 * itself). Commands wait through a reconnection instead of failing (BullMQ needs
 * `maxRetriesPerRequest: null`), so a restarted Redis delays deliveries but loses none.
 */
export function connect(connection: RedisConnection): RedisClient {
  const clusterOptions = (options: ClusterOptions = {}): ClusterOptions => ({
    ...CLUSTER_WAITS,
    ...options,
    redisOptions: { ...options.redisOptions, maxRetriesPerRequest: null },
  });
  const redis =
    connection instanceof Cluster
      ? connection.duplicate([], clusterOptions(connection.options))
      : typeof connection === "string"
        ? new Redis(connection, { maxRetriesPerRequest: null })
        : "cluster" in connection
          ? new Cluster(connection.cluster, clusterOptions(connection.options))
          : new Redis({ ...connection, maxRetriesPerRequest: null });
  // Connection errors are followed by reconnection (commands wait for it); the outbox's
  // health reports them once per change (never printed, never an unhandled `error` event).
  redis.on("error", () => undefined);
  return redis;
}
