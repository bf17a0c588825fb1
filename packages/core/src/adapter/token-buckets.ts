/**
 * The emulator kit's rate limiter: token buckets as platforms enforce them. An emulator
 * names the buckets a call takes from and what the call costs (one token, or more where the
 * platform counts a call as several, such as an upload); the limiter takes the cost from
 * each, or nothing and answers how long until all of them hold it, which the emulator turns
 * into the platform's 429 and its retry hint (Telegram's `retry_after` seconds, Slack's
 * `Retry-After` header, Discord's `retry_after` float, Matrix's `retry_after_ms`).
 */

/** One bucket a call takes from. */
export interface BucketRule {
  /** The bucket (`chat:42`, `global`): one bucket per key. */
  key: string;
  /** Tokens a full bucket holds (the burst). */
  capacity: number;
  /** Tokens it regains per millisecond. */
  perMs: number;
}

/** Token buckets of an emulated platform (see {@link createTokenBuckets}). */
export interface TokenBuckets {
  /**
   * Take `cost` tokens (default 1) from every bucket of `rules`, or none: `undefined` when
   * taken, else the milliseconds until every bucket holds them (counted as a refusal). A cost
   * over a bucket's capacity waits for a full bucket and leaves it in debt, so the platform's
   * rate holds over time. A call due within `toleranceMs` is taken early, as platforms
   * tolerate calls that bunch in flight.
   */
  take(rules: readonly BucketRule[], toleranceMs?: number, cost?: number): number | undefined;
  /** Calls refused so far. */
  refusals(): number;
}

/** Token buckets on the clock `now` (milliseconds), each starting full. */
export function createTokenBuckets(now: () => number): TokenBuckets {
  const buckets = new Map<string, { tokens: number; updated: number }>();
  let refused = 0;
  return {
    take(rules, toleranceMs = 0, cost = 1) {
      const at = now();
      const filled = rules.map((rule) => {
        const bucket = buckets.get(rule.key) ?? { tokens: rule.capacity, updated: at };
        bucket.tokens = Math.min(rule.capacity, bucket.tokens + (at - bucket.updated) * rule.perMs);
        bucket.updated = at;
        buckets.set(rule.key, bucket);
        return { bucket, perMs: rule.perMs, capacity: rule.capacity };
      });
      const waitMs = Math.max(
        0,
        ...filled.map(({ bucket, perMs, capacity }) => (Math.min(cost, capacity) - bucket.tokens) / perMs),
      );
      if (waitMs > toleranceMs) {
        refused += 1;
        return waitMs;
      }
      for (const { bucket } of filled) bucket.tokens -= cost;
      return undefined;
    },
    refusals: () => refused,
  };
}
