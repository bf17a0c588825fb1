/**
 * Synapse's `rc_message` for the bot's user: a token bucket of `burst` refilled at
 * `perSecond`, over every room, counting every event sent (messages, edits, redactions).
 * An event over it is answered 429 `M_LIMIT_EXCEEDED` with `retry_after_ms` (the time until a
 * token is back) and counted as a refusal.
 */
import { MatrixApiError } from "./api-error.js";
import type { EmulatorRateLimit } from "./types.js";

/** The bucket. */
export class MessageRateLimit {
  /** 429s answered under this limit (injected faults not counted). */
  refusals = 0;
  private tokens: number;
  private at: number;

  constructor(
    private readonly limit: EmulatorRateLimit | false,
    private readonly now: () => number,
  ) {
    this.tokens = limit === false ? 0 : limit.burst;
    this.at = now();
  }

  /** Take one event's token, or throw the 429. */
  take(): void {
    if (this.limit === false) return;
    const now = this.now();
    this.tokens = Math.min(this.limit.burst, this.tokens + ((now - this.at) / 1000) * this.limit.perSecond);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return;
    }
    this.refusals += 1;
    const retryAfterMs = Math.ceil(((1 - this.tokens) / this.limit.perSecond) * 1000);
    throw new MatrixApiError(429, "M_LIMIT_EXCEEDED", "Too Many Requests", { retry_after_ms: retryAfterMs });
  }
}
