/**
 * The Cloud API's sending limits as token buckets (core's emulator kit): the number's
 * throughput (80 messages per second by default, error 130429) and the pair rate limit (one
 * message to the same person every 6 seconds, bursts of up to 45, error 131056). Meta
 * documents the codes, not the HTTP status; the emulator answers 429, and the adapter reads
 * the code. Refusals are counted.
 */
import { createTokenBuckets, type TokenBuckets } from "@outbox/core/testing";
import { WHATSAPP_LIMITS, type WhatsAppLimits } from "../../capabilities.js";
import { GraphApiError } from "./graph-error.js";

/** Decides whether a message may go now; throws Graph's refusal when not. */
export class RateLimits {
  private readonly buckets: TokenBuckets;
  private readonly limits: Required<WhatsAppLimits>;

  constructor(limits: WhatsAppLimits, now: () => number) {
    this.limits = { ...WHATSAPP_LIMITS, ...limits };
    this.buckets = createTokenBuckets(now);
  }

  /** 429s answered under these limits. */
  get refusals(): number {
    return this.buckets.refusals();
  }

  /** One message to a person: the number's throughput first (its token is spent either way), then the pair. */
  message(waId: string): void {
    const { throughputPerSecond, pairBurst, pairIntervalMs } = this.limits;
    const throughput = {
      key: "throughput",
      capacity: throughputPerSecond,
      perMs: throughputPerSecond / 1000,
    };
    if (this.buckets.take([throughput]) !== undefined)
      throw new GraphApiError(
        130429,
        "Rate limit hit",
        `Cloud API message throughput has been reached (${throughputPerSecond} messages per second).`,
        429,
      );
    if (
      this.buckets.take([{ key: `pair:${waId}`, capacity: pairBurst, perMs: 1 / pairIntervalMs }]) !==
      undefined
    )
      throw new GraphApiError(
        131056,
        "(Business Account, Consumer Account) pair rate limit hit",
        "Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.",
        429,
      );
  }
}
