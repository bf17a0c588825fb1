import type { Clock, RateLimit } from "../adapter/types.js";

/** Spaces operations so they stay within the platform's rate limits. */
export interface Pacer {
  /** Wait until one operation to `to` is allowed by every applicable limit, and take it. */
  acquire(to: string, signal?: AbortSignal): Promise<void>;
  /**
   * The platform said `to` is exhausted (a 429, or a rate-limit header with nothing
   * remaining): hold every operation to that target for `ms`, whatever limits are declared.
   */
  pause(to: string, ms: number): void;
}

interface Bucket {
  tokens: number;
  updated: number;
}

interface Limit {
  capacity: number;
  perMs: number;
  scope: RateLimit["scope"];
  match: RegExp | undefined;
}

const PRUNE_AT = 10_000;
/** Tolerance for floating-point refill arithmetic. */
const EPSILON = 1e-9;

/**
 * Token buckets from `capabilities.rateLimits`: one per target per `target` limit, one
 * per `global` limit (a `match` pattern restricts a limit to the targets it matches).
 * An operation waits, on the injected clock, until every applicable bucket holds a token
 * and its target is not on hold, then takes one token from each; concurrent sends share
 * the buckets.
 */
export function createPacer(limits: readonly RateLimit[], clock: Clock): Pacer {
  const rules: Limit[] = limits.map((limit) => ({
    capacity: limit.burst ?? limit.limit,
    perMs: limit.limit / limit.intervalMs,
    scope: limit.scope,
    match: limit.match === undefined ? undefined : new RegExp(limit.match),
  }));
  const buckets = new Map<string, Bucket>();
  const holds = new Map<string, number>();

  const bucketsFor = (to: string, now: number): Array<[Limit, Bucket]> => {
    const out: Array<[Limit, Bucket]> = [];
    rules.forEach((rule, index) => {
      if (rule.match !== undefined && !rule.match.test(to)) return;
      const key = rule.scope === "global" ? `${index}` : `${index}\u0000${to}`;
      let bucket = buckets.get(key);
      if (bucket === undefined) {
        if (buckets.size >= PRUNE_AT) prune(now);
        bucket = { tokens: rule.capacity, updated: now };
        buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(rule.capacity, bucket.tokens + (now - bucket.updated) * rule.perMs);
      bucket.updated = now;
      out.push([rule, bucket]);
    });
    return out;
  };

  const prune = (now: number): void => {
    for (const [key, bucket] of buckets) {
      const rule = rules[Number(key.split("\u0000")[0])] as Limit;
      if (bucket.tokens + (now - bucket.updated) * rule.perMs >= rule.capacity) buckets.delete(key);
    }
    for (const [to, until] of holds) if (until <= now) holds.delete(to);
  };

  return {
    async acquire(to, signal) {
      for (;;) {
        signal?.throwIfAborted();
        const now = clock.now();
        const applicable = bucketsFor(to, now);
        let wait = (holds.get(to) ?? 0) - now;
        for (const [rule, bucket] of applicable)
          if (bucket.tokens < 1 - EPSILON) wait = Math.max(wait, (1 - bucket.tokens) / rule.perMs);
        if (wait <= 0) {
          for (const [, bucket] of applicable) bucket.tokens -= 1;
          return;
        }
        await clock.sleep(Math.ceil(wait), signal);
      }
    },
    pause(to, ms) {
      const now = clock.now();
      holds.set(to, Math.max(holds.get(to) ?? 0, now + ms));
      if (holds.size >= PRUNE_AT) prune(now);
      for (const [rule, bucket] of bucketsFor(to, now))
        if (rule.scope === "target") bucket.tokens = Math.min(bucket.tokens, 0);
    },
  };
}
