import type { DeliveryJournal, DeliveryStore } from "@outbox/core";
import type { RedisClient } from "./keys.js";

/**
 * KEYS: the job's BullMQ lock, the journal; ARGV: the worker's lock token, the journal, its
 * TTL in seconds. Writes the journal only while the lock holds that token: 1, else 0.
 */
const FENCED_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
return 1
`;

/** The job a journal write belongs to: its lock and this worker's token for it. */
export interface Fence {
  /** BullMQ's lock key of the job (`<prefix>:<queue>:<job id>:lock`). */
  lockKey: string;
  /** The token this worker took the job with. */
  token: string;
  /** Called when the lock no longer holds the token: the job went to another worker. */
  lost(): void;
}

/** Thrown by a journal write of a worker that no longer owns the job; the delivery stops. */
export class LostJobError extends Error {
  override name = "LostJobError";
}

/** Hooks around each journal write (for `onStep`). */
export interface StoreHooks {
  before?: (key: string, journal: DeliveryJournal) => void;
  after?: (key: string, journal: DeliveryJournal) => void;
}

/**
 * The delivery journal in Redis, shared by every worker: one JSON string per key, kept
 * `ttlSeconds`. Write-ahead: the engine also saves when each part's request leaves, so a
 * worker killed mid-part leaves that part marked ambiguous for the worker that takes the job
 * over. Fenced: a write made for a job (`fenceOf` knows it) happens only while the job's lock
 * still holds this worker's token, atomically; otherwise nothing is written, `lost` is called
 * and a {@link LostJobError} thrown, so a worker that lost its job never sends another part.
 */
export function createRedisStore(
  redis: RedisClient,
  keyOf: (key: string) => string,
  ttlSeconds: number,
  fenceOf: (key: string) => Fence | undefined = () => undefined,
  hooks: StoreHooks = {},
): DeliveryStore {
  return {
    writeAhead: true,
    async get(key) {
      const json = await redis.get(keyOf(key));
      return json === null ? undefined : (JSON.parse(json) as DeliveryJournal);
    },
    async set(key, journal) {
      hooks.before?.(key, journal);
      const fence = fenceOf(key);
      const json = JSON.stringify(journal);
      if (fence === undefined) await redis.set(keyOf(key), json, "EX", ttlSeconds);
      else if (
        Number(await redis.eval(FENCED_SET, 2, fence.lockKey, keyOf(key), fence.token, json, ttlSeconds)) !==
        1
      ) {
        fence.lost();
        throw new LostJobError(
          `the job of ${key} is no longer this worker's (its lock lapsed); stopped before the next part`,
        );
      }
      hooks.after?.(key, journal);
    },
  };
}
