/**
 * The delivery metrics (docs/operations.md, "Metrics"): parts by platform and outcome, their
 * latency, 429s, and the waits for pacing and for Retry-After. Attributes are the platform and
 * the outcome only, so their cardinality is bounded.
 */
import type { Attributes, Meter, MetricOptions } from "@opentelemetry/api";
import { ATTR, type Outcome } from "./attributes.js";

/** Where the instrumentation records deliveries. */
export interface DeliveryMetrics {
  /** A part ended after `seconds` (from its first attempt, waits included). */
  part(platform: string | undefined, outcome: Outcome, seconds: number): void;
  /** The platform answered 429. */
  rateLimited(platform: string | undefined): void;
  /** A call waited `seconds` for the pacer, or a 429 asked for that long. */
  wait(platform: string | undefined, reason: "pacing" | "retry-after", seconds: number): void;
}

/** Latency buckets in seconds: a call is tens of milliseconds, a paced part up to a minute. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * A monotonic counter whose sums this process keeps and the SDK reads at each collection (an
 * observable counter): adding is one map update instead of an SDK record per part, and the
 * exported points (a cumulative, monotonic sum per attribute set) are those of a counter.
 * `add` takes the attribute sets of {@link createDeliveryMetrics}, built once each.
 */
function tally(
  meter: Meter,
  name: string,
  options: MetricOptions,
): { add(n: number, attributes: Attributes): void } {
  const sums = new Map<Attributes, number>();
  const counter = meter.createObservableCounter(name, options);
  counter.addCallback((result) => {
    for (const [attributes, sum] of sums) result.observe(sum, attributes);
  });
  return {
    add(n, attributes) {
      sums.set(attributes, (sums.get(attributes) ?? 0) + n);
    },
  };
}

/** Create the instruments on `meter`. */
export function createDeliveryMetrics(meter: Meter): DeliveryMetrics {
  const parts = tally(meter, "outbox.parts", {
    description: "Plan parts sent, by platform and outcome (delivered, failed, ambiguous)",
    unit: "{part}",
  });
  const latency = meter.createHistogram("outbox.part.duration", {
    description: "Time from a part's first attempt to its outcome, pacing and retries included",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  });
  const limited = tally(meter, "outbox.rate_limited", {
    description: "Platform calls answered 429 (rate limited)",
    unit: "{response}",
  });
  const pacing = meter.createHistogram("outbox.pacing.wait", {
    description: "Time a call waited for the pacer before it left (only waits above zero)",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  });
  const retryAfter = meter.createHistogram("outbox.retry_after.wait", {
    description: "Wait a 429's Retry-After asked for before the call was retried",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  });
  // The attribute sets are few (platforms × outcomes): each is built once and reused.
  const sets = new Map<string | undefined, Map<Outcome | undefined, Attributes>>();
  const by = (platform: string | undefined, outcome?: Outcome): Attributes => {
    let ofPlatform = sets.get(platform);
    if (ofPlatform === undefined) {
      ofPlatform = new Map();
      sets.set(platform, ofPlatform);
    }
    let attributes = ofPlatform.get(outcome);
    if (attributes === undefined) {
      attributes = platform === undefined ? {} : { [ATTR.platform]: platform };
      if (outcome !== undefined) attributes[ATTR.outcome] = outcome;
      ofPlatform.set(outcome, Object.freeze(attributes));
    }
    return attributes;
  };
  return {
    part(platform, outcome, seconds) {
      const attributes = by(platform, outcome);
      parts.add(1, attributes);
      latency.record(seconds, attributes);
    },
    rateLimited(platform) {
      limited.add(1, by(platform));
    },
    wait(platform, reason, seconds) {
      (reason === "pacing" ? pacing : retryAfter).record(seconds, by(platform));
    },
  };
}
