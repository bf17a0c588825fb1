/**
 * Telegram's flood limits as token buckets (core's emulator kit): per chat, per group chat,
 * and overall.
 */
import { type BucketRule, createTokenBuckets, type TokenBuckets } from "@outbox/core/testing";
import type { EmulatorRateLimits } from "./types.js";

interface Rule {
  key: (chatId: number) => string | undefined;
  capacity: number;
  perMs: number;
}

/** Decides whether a message may go now; answers the wait in seconds when not. */
export class FloodControl {
  private readonly buckets: TokenBuckets;
  private readonly rules: Rule[];

  constructor(limits: EmulatorRateLimits, now: () => number) {
    this.buckets = createTokenBuckets(now);
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
    const rules = this.rules.flatMap((rule): BucketRule[] => {
      const key = rule.key(chatId);
      return key === undefined ? [] : [{ key, capacity: rule.capacity, perMs: rule.perMs }];
    });
    const waitMs = this.buckets.take(rules);
    return waitMs === undefined ? undefined : Math.max(1, Math.ceil(waitMs / 1000));
  }
}
