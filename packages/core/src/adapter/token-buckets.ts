/**
 * The emulator kit's rate limiter: token buckets as platforms enforce them. An emulator
 * names the buckets a call takes from; the limiter takes one token from each, or none and
 * answers how long until all of them hold one, which the emulator turns into the platform's
 * 429 and its retry hint (Telegram's `retry_after` seconds, Slack's `Retry-After` header,
 * Discord's `retry_after` float).
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
   * Take one token from every bucket of `rules`, or none: `undefined` when taken, else the
   * milliseconds until every bucket holds one (counted as a refusal). A call due within
   * `toleranceMs` is taken early, as platforms tolerate calls that bunch in flight.
   */
  take(rules: readonly BucketRule[], toleranceMs?: number): number | undefined;
  /** Calls refused so far. */
  refusals(): number;
}

/** Token buckets on the clock `now` (milliseconds), each starting full. */
export function createTokenBuckets(now: () => number): TokenBuckets {
  const buckets = new Map<string, { tokens: number; updated: number }>();
  let refused = 0;
  return {
    take(rules, toleranceMs = 0) {
      const at = now();
      const filled = rules.map((rule) => {
        const bucket = buckets.get(rule.key) ?? { tokens: rule.capacity, updated: at };
        bucket.tokens = Math.min(rule.capacity, bucket.tokens + (at - bucket.updated) * rule.perMs);
        bucket.updated = at;
        buckets.set(rule.key, bucket);
        return { bucket, perMs: rule.perMs };
      });
      const waitMs = Math.max(0, ...filled.map(({ bucket, perMs }) => (1 - bucket.tokens) / perMs));
      if (waitMs > toleranceMs) {
        refused += 1;
        return waitMs;
      }
      for (const { bucket } of filled) bucket.tokens -= 1;
      return undefined;
    },
    refusals: () => refused,
  };
}
