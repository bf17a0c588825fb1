/**
 * What the two sides of a Redis outbox, the enqueuing side and the workers, share. A leaf, so
 * that the outbox can start workers without the worker importing the outbox back.
 */
import type { OutboxConfig } from "../types.js";
import type { RedisHealth } from "./health.js";
import type { keysOf } from "./keys.js";

/** Settings both sides of a Redis outbox share. */
export interface RedisSettings {
  /** The outbox's configuration as given. */
  config: OutboxConfig;
  /** Where Redis is. */
  connection: NonNullable<OutboxConfig["connection"]>;
  /** Key prefix (`config.prefix` or the default). */
  prefix: string;
  /** Number of partitions (`config.partitions` or the default). */
  partitions: number;
  /** How long finished jobs and their receipts are kept (`config.retentionSeconds` or the default). */
  retentionSeconds: number;
  /** The Redis keys derived from the prefix. */
  keys: ReturnType<typeof keysOf>;
  /** Where connections report failures and recoveries (the outbox's `redis` event). */
  health: RedisHealth;
}
