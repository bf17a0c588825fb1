/**
 * The connector's limits as token buckets (core's emulator kit): per bot per conversation
 * 7 operations a second, 8 in 2 s, 60 in 30 s, 1,800 an hour, and 50 a second over every
 * conversation. Sends, edits and deletes all count. A refusal is a 429 with `Retry-After`
 * in whole seconds, counted.
 */
import type { RateLimit } from "@outbox/core";
import { type BucketRule, createTokenBuckets, type TokenBuckets } from "@outbox/core/testing";
import { ConnectorError } from "./errors.js";

/** Decides whether an operation on a conversation may go now; throws the connector's 429 when not. */
export class RateLimits {
  private readonly buckets: TokenBuckets;

  constructor(
    private readonly rules: readonly RateLimit[],
    now: () => number,
  ) {
    this.buckets = createTokenBuckets(now);
  }

  /** 429s answered under these limits. */
  get refusals(): number {
    return this.buckets.refusals();
  }

  /** One operation on `conversation`. */
  take(conversation: string): void {
    const rules: BucketRule[] = this.rules.map((rule, index) => ({
      key: rule.scope === "global" ? `global:${index}` : `${index}:${conversation}`,
      capacity: rule.burst ?? rule.limit,
      perMs: rule.limit / rule.intervalMs,
    }));
    const waitMs = this.buckets.take(rules);
    if (waitMs !== undefined)
      throw new ConnectorError(429, "TooManyRequests", "Too many requests to this conversation.", {
        "retry-after": String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
  }
}
