/**
 * The Cloud API's sending limits as token buckets: the number's throughput (80 messages per
 * second by default, error 130429) and the pair rate limit (one message to the same person
 * every 6 seconds, bursts of up to 45, error 131056). Meta documents the codes, not the HTTP
 * status; the emulator answers 429, and the adapter reads the code. Refusals are counted.
 */
import { WHATSAPP_LIMITS, type WhatsAppLimits } from "../../capabilities.js";
import { GraphApiError } from "./graph-error.js";

interface Bucket {
  tokens: number;
  updated: number;
}

/** Decides whether a message may go now; throws Graph's refusal when not. */
export class RateLimits {
  /** 429s answered under these limits. */
  refusals = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly limits: Required<WhatsAppLimits>;

  constructor(
    limits: WhatsAppLimits,
    private readonly now: () => number,
  ) {
    this.limits = { ...WHATSAPP_LIMITS, ...limits };
  }

  /** One message to a person: the number's throughput first, then the pair. */
  message(waId: string): void {
    const { throughputPerSecond, pairBurst, pairIntervalMs } = this.limits;
    this.take(
      "throughput",
      throughputPerSecond,
      throughputPerSecond / 1000,
      () =>
        new GraphApiError(
          130429,
          "Rate limit hit",
          `Cloud API message throughput has been reached (${throughputPerSecond} messages per second).`,
          429,
        ),
    );
    this.take(
      `pair:${waId}`,
      pairBurst,
      1 / pairIntervalMs,
      () =>
        new GraphApiError(
          131056,
          "(Business Account, Consumer Account) pair rate limit hit",
          "Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.",
          429,
        ),
    );
  }

  private take(key: string, capacity: number, perMs: number, refusal: () => GraphApiError): void {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: capacity, updated: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.updated) * perMs);
    bucket.updated = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    this.refusals += 1;
    throw refusal();
  }
}
