import type { Clock, PacingOptions, RateLimit } from "../adapter/types.js";
import { Fifo } from "./fifo.js";

/** Spaces operations so they stay within the platform's rate limits. */
export interface Pacer {
  /**
   * Wait until one operation to `to` is allowed by every applicable limit, and take it.
   * Waiters for one target are released in arrival order; `retry` puts the caller at the
   * front of its target's queue (an operation the platform already refused once).
   */
  acquire(to: string, signal?: AbortSignal, retry?: boolean): Promise<void>;
  /**
   * The platform said `to` is exhausted (a rate-limit header with nothing remaining):
   * hold every operation to that target for `ms`, whatever limits are declared.
   */
  pause(to: string, ms: number): void;
  /**
   * The platform answered a 429 naming `scope`: hold that scope (the target, or every
   * target for `global`) for `ms`, and lower the declared rates of that scope's limits
   * (10% per 429, at most to half, recovering over {@link PacingOptions.recoveryMs}).
   * Buckets of other scopes keep their tokens.
   */
  limited(to: string, ms: number, scope?: "target" | "global"): void;
}

interface Bucket {
  tokens: number;
  updated: number;
}

interface Rule {
  capacity: number;
  /** Declared rate less the safety margin, operations per millisecond. */
  perMs: number;
  scope: RateLimit["scope"];
  match: RegExp | undefined;
  index: number;
  /** Rate factor learned from 429s and when it was learned. */
  learned: number;
  learnedAt: number;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  done: boolean;
}

/** The waiters of one target and the buckets that apply to it. */
interface Lane {
  to: string;
  own: Array<[Rule, Bucket]>;
  shared: Array<[Rule, Bucket]>;
  queue: Fifo<Waiter>;
  timer: AbortController | undefined;
  queued: boolean;
}

const PRUNE_AT = 10_000;
/** Why a pacer timer was cancelled: one shared reason, as a `DOMException` per cancel costs a stack trace. */
const SUPERSEDED = new Error("pacer timer superseded");
/** Tolerance for floating-point refill arithmetic. */
const EPSILON = 1e-9;
/** Each 429 multiplies the scope's rates by this, down to {@link FLOOR}. */
const DECREASE = 0.9;
const FLOOR = 0.5;
/** Default margin below the declared limits. */
export const DEFAULT_PACING_MARGIN = 0.03;
/** Default allowance for varying request latency, in milliseconds. */
export const DEFAULT_LATENCY_MS = 500;

/**
 * Token buckets from `capabilities.rateLimits`: one per target per `target` limit, one
 * per `global` limit (a `match` pattern restricts a limit to the targets it matches),
 * refilled at the declared rate less `margin`, their bursts lowered by what the rate refills
 * in `latencyMs`.
 *
 * It schedules instead of polling: each target with waiters has one queue and at most one
 * timer (until its own buckets and holds allow its first waiter); targets whose first
 * waiter needs a token of a `global` bucket line up in one FIFO with one timer. Every
 * timer that fires releases a waiter or moves one forward, so the cost per operation does
 * not grow with the number of waiting operations.
 */
export function createPacer(limits: readonly RateLimit[], clock: Clock, options: PacingOptions = {}): Pacer {
  const margin = options.margin ?? DEFAULT_PACING_MARGIN;
  if (!(margin >= 0 && margin < 1)) throw new RangeError(`pacing.margin must be in [0, 1), got ${margin}`);
  const recoveryMs = options.recoveryMs ?? 600_000;
  const latencyMs = options.latencyMs ?? DEFAULT_LATENCY_MS;
  const rules: Rule[] = limits.map((limit, index) => ({
    // Requests released together may reach the platform closer together than released:
    // keep what the rate refills in `latencyMs` out of the burst (never below one).
    capacity: Math.max(1, (limit.burst ?? limit.limit) - (limit.limit * latencyMs) / limit.intervalMs),
    perMs: (limit.limit * (1 - margin)) / limit.intervalMs,
    scope: limit.scope,
    match: limit.match === undefined ? undefined : new RegExp(limit.match),
    index,
    learned: 1,
    learnedAt: 0,
  }));
  const buckets = new Map<string, Bucket>();
  const holds = new Map<string, number>();
  let holdAll = 0;
  const lanes = new Map<string, Lane>();
  const ready = new Fifo<Lane>();
  let readyTimer: AbortController | undefined;
  let draining = false;

  const rate = (rule: Rule, now: number): number =>
    rule.learned >= 1
      ? rule.perMs
      : rule.perMs * Math.min(1, rule.learned + (now - rule.learnedAt) / recoveryMs);

  const bucketOf = (rule: Rule, to: string, now: number): Bucket => {
    const key = rule.scope === "global" ? `${rule.index}` : `${rule.index}\u0000${to}`;
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      if (buckets.size >= PRUNE_AT) prune(now);
      bucket = { tokens: rule.capacity, updated: now };
      buckets.set(key, bucket);
    }
    return bucket;
  };

  const applicable = (to: string, now: number, scope: RateLimit["scope"]): Array<[Rule, Bucket]> => {
    const out: Array<[Rule, Bucket]> = [];
    for (const rule of rules)
      if (rule.scope === scope && (rule.match === undefined || rule.match.test(to)))
        out.push([rule, bucketOf(rule, to, now)]);
    return out;
  };

  /** Milliseconds until every bucket in `pairs` holds a token (refilling them to `now`). */
  const waitFor = (pairs: Array<[Rule, Bucket]>, now: number): number => {
    let wait = 0;
    for (const [rule, bucket] of pairs) {
      const perMs = rate(rule, now);
      bucket.tokens = Math.min(rule.capacity, bucket.tokens + (now - bucket.updated) * perMs);
      bucket.updated = now;
      if (bucket.tokens < 1 - EPSILON) wait = Math.max(wait, (1 - bucket.tokens) / perMs);
    }
    return wait;
  };

  const holdWait = (to: string, now: number): number => Math.max(holdAll, holds.get(to) ?? 0) - now;

  const prune = (now: number): void => {
    for (const [key, bucket] of buckets) {
      const [index, to] = key.split("\u0000");
      if (to === undefined || lanes.has(to)) continue;
      const rule = rules[Number(index)] as Rule;
      if (bucket.tokens + (now - bucket.updated) * rate(rule, now) >= rule.capacity) buckets.delete(key);
    }
    for (const [to, until] of holds) if (until <= now) holds.delete(to);
  };

  const take = (lane: Lane): void => {
    for (const [, bucket] of lane.own) bucket.tokens -= 1;
    for (const [, bucket] of lane.shared) bucket.tokens -= 1;
  };

  const release = (waiter: Waiter): void => {
    waiter.done = true;
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve();
  };

  const timer = (ms: number, fire: () => void): AbortController => {
    const control = new AbortController();
    clock.sleep(Math.ceil(ms), control.signal).then(fire, () => undefined);
    return control;
  };

  /** Move a lane forward: release its first waiter, line it up for a global token, or set its timer. */
  const advance = (lane: Lane): void => {
    lane.timer?.abort(SUPERSEDED);
    lane.timer = undefined;
    for (;;) {
      while (lane.queue.peek()?.done) lane.queue.shift();
      if (lane.queue.size === 0) {
        if (!lane.queued) lanes.delete(lane.to);
        return;
      }
      const now = clock.now();
      const wait = Math.max(holdWait(lane.to, now), waitFor(lane.own, now));
      if (wait > 0) {
        lane.timer = timer(wait, () => {
          lane.timer = undefined;
          advance(lane);
        });
        return;
      }
      if (lane.shared.length > 0) {
        if (!lane.queued) {
          lane.queued = true;
          ready.push(lane);
        }
        drain();
        return;
      }
      take(lane);
      release(lane.queue.shift() as Waiter);
    }
  };

  /** Release the lanes lined up for global tokens, in order, while the tokens last. */
  const drain = (): void => {
    if (draining) return;
    draining = true;
    readyTimer?.abort(SUPERSEDED);
    readyTimer = undefined;
    try {
      for (let lane = ready.peek(); lane !== undefined; lane = ready.peek()) {
        const now = clock.now();
        const head = lane.queue.peek();
        if (head === undefined || head.done || holdWait(lane.to, now) > 0 || waitFor(lane.own, now) > 0) {
          ready.shift();
          lane.queued = false;
          advance(lane);
          continue;
        }
        const wait = waitFor(lane.shared, now);
        if (wait > 0) {
          readyTimer = timer(wait, () => {
            readyTimer = undefined;
            drain();
          });
          return;
        }
        ready.shift();
        lane.queued = false;
        take(lane);
        release(lane.queue.shift() as Waiter);
        advance(lane);
      }
    } finally {
      draining = false;
    }
  };

  const laneOf = (to: string): Lane => {
    let lane = lanes.get(to);
    if (lane === undefined) {
      const now = clock.now();
      lane = {
        to,
        own: applicable(to, now, "target"),
        shared: applicable(to, now, "global"),
        queue: new Fifo(),
        timer: undefined,
        queued: false,
      };
      lanes.set(to, lane);
    }
    return lane;
  };

  const hold = (to: string, ms: number, scope: "target" | "global"): void => {
    const now = clock.now();
    if (scope === "global") holdAll = Math.max(holdAll, now + ms);
    else holds.set(to, Math.max(holds.get(to) ?? 0, now + ms));
    if (holds.size >= PRUNE_AT) prune(now);
    if (scope === "global") for (const lane of [...lanes.values()]) if (!lane.queued) advance(lane);
    const lane = lanes.get(to);
    if (lane !== undefined && !lane.queued) advance(lane);
  };

  return {
    acquire(to, signal, retry = false) {
      signal?.throwIfAborted();
      const lane = laneOf(to);
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined, done: false };
        if (signal !== undefined) {
          waiter.onAbort = () => {
            if (waiter.done) return;
            waiter.done = true;
            reject(signal.reason);
          };
          signal.addEventListener("abort", waiter.onAbort, { once: true });
        }
        if (retry) lane.queue.unshift(waiter);
        else lane.queue.push(waiter);
        if (lane.queue.size === 1 || retry) if (!lane.queued) advance(lane);
      });
    },
    pause(to, ms) {
      hold(to, ms, "target");
    },
    limited(to, ms, scope = "target") {
      const now = clock.now();
      for (const rule of rules) {
        if (rule.scope !== scope || (rule.match !== undefined && !rule.match.test(to))) continue;
        const current = rate(rule, now) / rule.perMs;
        rule.learned = Math.max(FLOOR, current * DECREASE);
        rule.learnedAt = now;
      }
      hold(to, ms, scope);
    },
  };
}
