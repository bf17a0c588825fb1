/**
 * Slack's rate limits as token buckets (core's emulator kit): chat.postMessage per channel (about one a second,
 * short bursts), the Tier 4 files.* methods and the Tier 3 chat.update and chat.delete per
 * workspace. Refusals are counted.
 */
import { createTokenBuckets, type TokenBuckets } from "@outbox/core/testing";
import { SlackApiError } from "./errors.js";
import type { EmulatorRateLimits } from "./types.js";

/** Decides whether a call may go now; throws Slack's 429 when not. */
export class RateLimits {
  /** 429s answered under these limits. */
  refusals = 0;
  private readonly buckets: TokenBuckets;

  constructor(
    private readonly limits: EmulatorRateLimits,
    now: () => number,
  ) {
    this.buckets = createTokenBuckets(now);
  }

  /** One chat.postMessage to a channel. */
  message(channel: string): void {
    const perSecond = this.limits.perChannelPerSecond ?? 1;
    this.take(`chat:${channel}`, this.limits.perChannelBurst ?? 4, perSecond / 1000);
  }

  /** One files.* call. */
  files(): void {
    const perMinute = this.limits.filesPerMinute ?? 100;
    this.take("files", this.limits.filesBurst ?? 20, perMinute / 60_000);
  }

  /** One chat.update or chat.delete call (Tier 3, one bucket per method for the workspace). */
  edit(method: "chat.update" | "chat.delete"): void {
    const perMinute = this.limits.editsPerMinute ?? 50;
    this.take(method, this.limits.editsBurst ?? 10, perMinute / 60_000);
  }

  private take(key: string, capacity: number, perMs: number): void {
    const waitMs = this.buckets.take([{ key, capacity, perMs }]);
    if (waitMs === undefined) return;
    this.refusals += 1;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    throw new SlackApiError("ratelimited", undefined, undefined, 429, { "retry-after": String(seconds) });
  }
}
