import type { RateLimit } from "../adapter/types.js";

/** A declared rate limit's numbers as the pacer (and `@outbox/queue`'s shared gate) keep to them. */
export interface LimitRates {
  /** Declared burst (`burst ?? limit`). */
  burst: number;
  /** Declared rate, operations per millisecond. */
  declaredPerMs: number;
  /** A full bucket's capacity: {@link heldBackBurst} of the burst for `latencyMs`. */
  capacity: number;
  /** Declared rate less the safety margin, operations per millisecond. */
  perMs: number;
}

/** The burst less what `perMs` refills in `ms` (never below one). */
export function heldBackBurst(burst: number, perMs: number, ms: number): number {
  return Math.max(1, burst - perMs * ms);
}

/**
 * `limit`'s burst and rates: refilled at the declared rate less `margin`, a full bucket
 * holding back what the declared rate refills in `latencyMs` (see `PacingOptions`).
 */
export function limitRates(limit: RateLimit, margin: number, latencyMs: number): LimitRates {
  const burst = limit.burst ?? limit.limit;
  const declaredPerMs = limit.limit / limit.intervalMs;
  return {
    burst,
    declaredPerMs,
    capacity: heldBackBurst(burst, declaredPerMs, latencyMs),
    perMs: (limit.limit * (1 - margin)) / limit.intervalMs,
  };
}
