import type { Clock, Operation, RateLimit } from "../../../src/adapter/types.js";
import { RateLimitedError } from "../../../src/errors/errors.js";

/** A fake platform that enforces rate limits exactly like a strict server: a 429 when over. */
export interface StrictPlatform {
  /** Check one arriving operation; throws `RateLimitedError` when a limit is exceeded. */
  admit(op: Operation): void;
  /** How many 429s were answered. */
  readonly rejected: number;
}

/** Create a {@link StrictPlatform} for `limits` (token buckets, as documented on `RateLimit`). */
export function createStrictPlatform(limits: RateLimit[], clock: Clock): StrictPlatform {
  const state = new Map<string, { tokens: number; at: number }>();
  let rejected = 0;
  return {
    get rejected() {
      return rejected;
    },
    admit(op) {
      const now = clock.now();
      const hit: Array<{ tokens: number; at: number }> = [];
      let retryAfter = 0;
      limits.forEach((limit, index) => {
        if (limit.match !== undefined && !new RegExp(limit.match).test(op.target.to)) return;
        const key = limit.scope === "global" ? `${index}` : `${index}:${op.target.to}`;
        const capacity = limit.burst ?? limit.limit;
        const rate = limit.limit / limit.intervalMs;
        const bucket = state.get(key) ?? { tokens: capacity, at: now };
        bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * rate);
        bucket.at = now;
        state.set(key, bucket);
        if (bucket.tokens < 1 - 1e-9)
          retryAfter = Math.max(retryAfter, Math.ceil((1 - bucket.tokens) / rate));
        hit.push(bucket);
      });
      if (retryAfter > 0) {
        rejected += 1;
        throw new RateLimitedError("Too Many Requests", retryAfter);
      }
      for (const bucket of hit) bucket.tokens -= 1;
    },
  };
}
