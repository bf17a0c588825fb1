/**
 * Per-route buckets as Discord runs them: a fixed window per bucket and major id (the
 * channel for Create Message), announced on every answer with `X-RateLimit-*` headers; a
 * request over the limit gets a 429 and is counted as a refusal (Discord's route buckets are
 * fixed windows, not token buckets, and announce their reset). And the global limit per bot
 * (50 requests a second, all routes): a token bucket of 50 refilled at 50/s (the kit's),
 * whose 429 says `X-RateLimit-Global: true` and `X-RateLimit-Scope: global`.
 */
import { type BucketRule, createTokenBuckets, type TokenBuckets } from "@outbox/core/testing";
import { DiscordApiError } from "./api-error.js";
import type { EmulatorBucket } from "./types.js";

interface Window {
  used: number;
  resetAt: number;
}

/** The Create Message buckets. */
export class Buckets {
  private readonly windows = new Map<string, Window>();
  /** 429s answered under these limits. */
  refusals = 0;

  constructor(
    private readonly bucket: EmulatorBucket | false,
    private readonly now: () => number,
    private readonly hash: string,
  ) {}

  /** Take one request for `major`; returns the headers to send, or throws the 429. */
  take(major: string): Record<string, string> {
    if (this.bucket === false) return {};
    const { limit, windowMs } = this.bucket;
    const now = this.now();
    let window = this.windows.get(major);
    if (window === undefined || now >= window.resetAt) {
      window = { used: 0, resetAt: now + windowMs };
      this.windows.set(major, window);
    }
    const resetAfter = Math.max(0, window.resetAt - now) / 1000;
    const headers = (remaining: number): Record<string, string> => ({
      "x-ratelimit-limit": String(limit),
      "x-ratelimit-remaining": String(remaining),
      "x-ratelimit-reset": ((Date.now() + resetAfter * 1000) / 1000).toFixed(3),
      "x-ratelimit-reset-after": resetAfter.toFixed(3),
      "x-ratelimit-bucket": this.hash,
    });
    if (window.used >= limit) {
      this.refusals += 1;
      throw new DiscordApiError(429, 0, "You are being rate limited.", undefined, {
        ...headers(0),
        "retry-after": String(Math.max(1, Math.ceil(resetAfter))),
        "x-ratelimit-scope": "user",
      });
    }
    window.used += 1;
    return headers(limit - window.used);
  }
}

/** Discord's global limit per bot, on the kit's token buckets (requests per second, burst the same). */
export class GlobalLimit {
  private readonly buckets: TokenBuckets;
  private readonly rule: BucketRule;

  constructor(perSecond: number, now: () => number) {
    this.buckets = createTokenBuckets(now);
    this.rule = { key: "global", capacity: perSecond, perMs: perSecond / 1000 };
  }

  /** 429s answered under this limit. */
  get refusals(): number {
    return this.buckets.refusals();
  }

  /** Take one request; throws the global 429 when the bot is over the limit. */
  take(): void {
    const waitMs = this.buckets.take([this.rule]);
    if (waitMs === undefined) return;
    throw new DiscordApiError(429, 0, "You are being rate limited.", undefined, {
      "retry-after": (waitMs / 1000).toFixed(3),
      "x-ratelimit-global": "true",
      "x-ratelimit-scope": "global",
    });
  }
}
