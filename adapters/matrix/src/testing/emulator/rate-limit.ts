/**
 * Synapse's `rc_message` for the bot's user, on the kit's token buckets: a bucket of `burst`
 * refilled at `perSecond`, over every room, counting every event sent (messages, edits,
 * redactions). An event over it is answered 429 `M_LIMIT_EXCEEDED` with `retry_after_ms`
 * (the time until a token is back) and counted as a refusal.
 */
import { type BucketRule, createTokenBuckets, type TokenBuckets } from "@outbox/core/testing";
import { MatrixApiError } from "./api-error.js";
import type { EmulatorRateLimit } from "./types.js";

/** The bucket. */
export class MessageRateLimit {
  private readonly buckets: TokenBuckets;
  private readonly rule: BucketRule | undefined;

  constructor(limit: EmulatorRateLimit | false, now: () => number) {
    this.buckets = createTokenBuckets(now);
    this.rule =
      limit === false
        ? undefined
        : { key: "rc_message", capacity: limit.burst, perMs: limit.perSecond / 1000 };
  }

  /** 429s answered under this limit (injected faults not counted). */
  get refusals(): number {
    return this.buckets.refusals();
  }

  /** Take one event's token, or throw the 429. */
  take(): void {
    if (this.rule === undefined) return;
    const waitMs = this.buckets.take([this.rule]);
    if (waitMs === undefined) return;
    throw new MatrixApiError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", {
      retry_after_ms: Math.ceil(waitMs),
    });
  }
}
