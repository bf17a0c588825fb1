import type { DeliveryJournal, DeliveryStore } from "@outbox/core";
import type { Redis } from "ioredis";

/**
 * The delivery journal in Redis, shared by every worker: one JSON string per key, kept
 * `ttlSeconds`. Write-ahead: the engine also saves before each part, so a worker killed
 * mid-part leaves that part marked ambiguous for the worker that takes the job over.
 */
export function createRedisStore(
  redis: Redis,
  keyOf: (key: string) => string,
  ttlSeconds: number,
  hooks: { before?: (key: string) => void; after?: (key: string) => void } = {},
): DeliveryStore {
  return {
    writeAhead: true,
    async get(key) {
      const json = await redis.get(keyOf(key));
      return json === null ? undefined : (JSON.parse(json) as DeliveryJournal);
    },
    async set(key, journal) {
      hooks.before?.(key);
      await redis.set(keyOf(key), JSON.stringify(journal), "EX", ttlSeconds);
      hooks.after?.(key);
    },
  };
}
