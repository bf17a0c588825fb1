/**
 * Telegram's flood limits as token buckets: per chat, per group chat, and overall.
 */
import type { EmulatorRateLimits } from "./types.js";

interface Bucket {
  tokens: number;
  updated: number;
}

interface Rule {
  key: (chatId: number) => string | undefined;
  capacity: number;
  perMs: number;
}

/** Decides whether a message may go now; answers the wait in seconds when not. */
export class FloodControl {
  private readonly buckets = new Map<string, Bucket>();
  private readonly rules: Rule[];

  constructor(
    limits: EmulatorRateLimits,
    private readonly now: () => number,
  ) {
    const perChat = limits.perChatPerSecond ?? 1;
    const perGroup = limits.perGroupPerMinute ?? 20;
    const global = limits.globalPerSecond ?? 30;
    this.rules = [
      { key: (id) => `chat:${id}`, capacity: limits.perChatBurst ?? 5, perMs: perChat / 1000 },
      { key: (id) => (id < 0 ? `group:${id}` : undefined), capacity: perGroup, perMs: perGroup / 60_000 },
      { key: () => "global", capacity: global, perMs: global / 1000 },
    ];
  }

  /** Take one message from every bucket that applies; or the seconds to wait (nothing taken). */
  take(chatId: number): number | undefined {
    const now = this.now();
    const applicable: Array<{ bucket: Bucket; rule: Rule }> = [];
    for (const rule of this.rules) {
      const key = rule.key(chatId);
      if (key === undefined) continue;
      let bucket = this.buckets.get(key);
      if (!bucket) {
        bucket = { tokens: rule.capacity, updated: now };
        this.buckets.set(key, bucket);
      }
      bucket.tokens = Math.min(rule.capacity, bucket.tokens + (now - bucket.updated) * rule.perMs);
      bucket.updated = now;
      applicable.push({ bucket, rule });
    }
    const waitMs = Math.max(0, ...applicable.map(({ bucket, rule }) => (1 - bucket.tokens) / rule.perMs));
    if (waitMs > 0) return Math.max(1, Math.ceil(waitMs / 1000));
    for (const { bucket } of applicable) bucket.tokens -= 1;
    return undefined;
  }
}
