import type { Clock, PacingOptions, RateLimit, RequestCounts } from "../adapter/types.js";
import { Fifo } from "./fifo.js";
import { heldBackBurst, type LimitRates, limitRates } from "./limit-rates.js";

/** Spaces operations so they stay within the platform's rate limits. */
export interface Pacer {
  /**
   * Wait until one operation to `to` is allowed by every applicable limit, and take it.
   * Waiters for one target are released in arrival order; `retry` puts the caller at the
   * front of its target's queue (an operation the platform already refused once). `kind`
   * (default `text`) takes as many tokens of each limit as it declares requests of that kind
   * ({@link RateLimit.requests}). Resolves with a ticket to hand to {@link answered} once
   * the operation has its answer.
   */
  acquire(
    to: string,
    signal?: AbortSignal,
    retry?: boolean,
    kind?: keyof RequestCounts,
  ): Promise<PacerTicket>;
  /**
   * {@link acquire} without waiting: the ticket when nothing waits for `to` and every
   * applicable limit and hold allows an operation of `kind` now (it is taken then), else
   * `undefined` and nothing taken. Most calls pass so, with no promise or waiter to build.
   */
  take(to: string, kind?: keyof RequestCounts): PacerTicket | undefined;
  /**
   * The platform said `to` is exhausted (a rate-limit header with nothing remaining):
   * hold every operation to that target for `ms`, whatever limits are declared.
   */
  pause(to: string, ms: number): void;
  /**
   * The platform answered a 429 naming `scope`: hold that scope (the target, or every
   * target for `global`) for `ms`, and lower the declared rates of that scope's limits
   * (10% per 429, at most to half, recovering over {@link PacingOptions.recoveryMs}); 429s
   * within the hold of the one a limit last learned from (for any target) lower it no more.
   * Buckets of other scopes keep their tokens.
   */
  limited(to: string, ms: number, scope?: "target" | "global"): void;
  /**
   * The operation `ticket` released got its answer, or failed. When it was the first taken
   * from a full bucket, its time from release to answer is an upper bound on how late the
   * platform started counting that bucket: the bucket gets back what its rate refills in
   * the difference between that and the latency allowance ({@link PacingOptions.latencyMs}).
   * A ticket never answered leaves its buckets with the whole allowance held back.
   */
  answered(ticket: PacerTicket): void;
  /**
   * Wait until `ms` have passed since the message `key` last changed ({@link changed}), or,
   * with `orLooked`, was last looked at ({@link looked}): the least interval between edits
   * of one message, kept before the edit queues for the rate limits, so a wait for it holds
   * no place in its target's queue. Rejects with the signal's reason when it aborts.
   */
  spaced(key: string, ms: number, signal?: AbortSignal, orLooked?: boolean): Promise<void>;
  /** The message `key` changed now (sent or edited): its next edit is spaced from here. */
  changed(key: string): void;
  /** The message `key` was looked at now and left as it is (an edit found nothing new to show). */
  looked(key: string): void;
}

/** What {@link Pacer.acquire} resolves with: one released operation. */
export interface PacerTicket {
  /** When it was released, clock milliseconds. */
  readonly releasedAt: number;
}

interface Bucket {
  tokens: number;
  updated: number;
  /** Most tokens it holds now: the burst less what is held back for latency. */
  capacity: number;
  rule: Rule;
  /** The target, for a `target` limit's bucket. */
  to: string | undefined;
}

/** A released operation and the buckets it found full (the platform may count from its arrival). */
interface Ticket extends PacerTicket {
  opened: Bucket[] | undefined;
}

/** A declared limit: its rates ({@link LimitRates}, `capacity` for `latencyMs`) and what it learned. */
interface Rule extends LimitRates {
  scope: RateLimit["scope"];
  match: RegExp | undefined;
  index: number;
  /** Rate factor learned from 429s and when it was learned. */
  learned: number;
  learnedAt: number;
  /** End of the hold of the 429 it last learned from; 429s before then teach nothing more. */
  quietUntil: number;
  /** Tokens each kind of send takes ({@link RateLimit.requests}). */
  requests: RequestCounts;
}

interface Waiter {
  resolve: (ticket: Ticket) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  done: boolean;
  kind: keyof RequestCounts;
}

/** The waiters of one target and the buckets that apply to it. */
interface Lane {
  to: string;
  own: readonly Bucket[];
  shared: readonly Bucket[];
  queue: Fifo<Waiter>;
  timer: AbortController | undefined;
  queued: boolean;
}

const PRUNE_AT = 10_000;
/** The buckets of a target no limit of a scope applies to: one list for all, never written. */
const NO_BUCKETS: readonly Bucket[] = [];
/** Why a pacer timer was cancelled: one shared reason, as a `DOMException` per cancel costs a stack trace. */
const SUPERSEDED = new Error("pacer timer superseded");
/** Tolerance for floating-point refill arithmetic. */
const EPSILON = 1e-9;
/** Each 429 multiplies the scope's rates by this, down to {@link FLOOR}. */
const DECREASE = 0.9;
const FLOOR = 0.5;
/** Default margin below the declared limits. */
const DEFAULT_PACING_MARGIN = 0.01;
/** Default allowance for varying request latency, in milliseconds. */
const DEFAULT_LATENCY_MS = 500;
/** Default least allowance once measured, in milliseconds. */
const DEFAULT_MIN_LATENCY_MS = 50;

/** The margin and latency allowances of `options` ({@link PacingOptions}), defaults filled in. */
export function resolvePacing(options: PacingOptions = {}): {
  margin: number;
  latencyMs: number;
  minLatencyMs: number;
} {
  const margin = options.margin ?? DEFAULT_PACING_MARGIN;
  if (!(margin >= 0 && margin < 1)) throw new RangeError(`pacing.margin must be in [0, 1), got ${margin}`);
  const latencyMs = options.latencyMs ?? DEFAULT_LATENCY_MS;
  return {
    margin,
    latencyMs,
    minLatencyMs: Math.min(latencyMs, options.minLatencyMs ?? DEFAULT_MIN_LATENCY_MS),
  };
}

/**
 * Token buckets from `capabilities.rateLimits`: one per target per `target` limit, one
 * per `global` limit (a `match` pattern restricts a limit to the targets it matches),
 * refilled at the declared rate less `margin`. Requests released one after the other can
 * reach the platform closer together than released, and the platform starts counting a
 * bucket at the first request's arrival: each full bucket holds back what its rate refills in
 * `latencyMs`, and when the operation that opened it is answered, gets back all but what
 * refills in that operation's time from release to answer (at least `minLatencyMs`).
 *
 * It schedules instead of polling: each target with waiters has one queue and at most one
 * timer (until its own buckets and holds allow its first waiter); targets whose first
 * waiter needs a token of a `global` bucket line up in one FIFO with one timer. Every
 * timer that fires releases a waiter or moves one forward, so the cost per operation does
 * not grow with the number of waiting operations.
 */
export function createPacer(limits: readonly RateLimit[], clock: Clock, options: PacingOptions = {}): Pacer {
  const { margin, latencyMs, minLatencyMs } = resolvePacing(options);
  const recoveryMs = options.recoveryMs ?? 600_000;
  const rules: Rule[] = limits.map((limit, index) => ({
    ...limitRates(limit, margin, latencyMs),
    scope: limit.scope,
    match: limit.match === undefined ? undefined : new RegExp(limit.match),
    index,
    learned: 1,
    learnedAt: 0,
    quietUntil: Number.NEGATIVE_INFINITY,
    requests: limit.requests ?? {},
  }));
  const buckets = new Map<string, Bucket>();
  const holds = new Map<string, number>();
  /** Per message being edited: when it last changed, and when it was last looked at. */
  const messages = new Map<string, { changed: number; looked: number }>();
  /** The longest spacing asked for: a message untouched for longer is forgotten. */
  let longestSpacing = 0;
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
      bucket = {
        tokens: rule.capacity,
        updated: now,
        capacity: rule.capacity,
        rule,
        to: rule.scope === "global" ? undefined : to,
      };
      buckets.set(key, bucket);
    }
    return bucket;
  };

  const applicable = (to: string, now: number, scope: RateLimit["scope"]): readonly Bucket[] => {
    let out: Bucket[] | undefined;
    for (const rule of rules)
      if (rule.scope === scope && (rule.match === undefined || rule.match.test(to))) {
        out ??= [];
        out.push(bucketOf(rule, to, now));
      }
    return out ?? NO_BUCKETS;
  };

  /** Tokens a send of `kind` takes of `bucket`: the requests its rule declares for the kind. */
  const cost = (bucket: Bucket, kind: keyof RequestCounts): number => bucket.rule.requests[kind] ?? 1;

  /**
   * Milliseconds until every bucket in `of` holds the tokens a send of `kind` takes (refilling
   * them to `now`); a cost over the bucket's capacity waits for a full bucket and leaves it in debt.
   */
  const waitFor = (of: readonly Bucket[], now: number, kind: keyof RequestCounts = "text"): number => {
    let wait = 0;
    for (const bucket of of) {
      const perMs = rate(bucket.rule, now);
      bucket.tokens = Math.min(bucket.capacity, bucket.tokens + (now - bucket.updated) * perMs);
      bucket.updated = now;
      const need = Math.min(cost(bucket, kind), bucket.capacity);
      if (bucket.tokens < need - EPSILON) wait = Math.max(wait, (need - bucket.tokens) / perMs);
    }
    return wait;
  };

  /** The kind of the first live waiter of `lane` (`text` when none). */
  const headKind = (lane: Lane): keyof RequestCounts => lane.queue.peek()?.kind ?? "text";

  const holdWait = (to: string, now: number): number => Math.max(holdAll, holds.get(to) ?? 0) - now;

  /**
   * Milliseconds until the holds of `to` and its own buckets allow a send of `kind` (refilled to
   * `now`; 0 or less: now). A send the target allows goes once its global buckets do too.
   */
  const ownWait = (to: string, own: readonly Bucket[], now: number, kind: keyof RequestCounts): number =>
    Math.max(holdWait(to, now), waitFor(own, now, kind));

  const prune = (now: number): void => {
    for (const [key, bucket] of buckets) {
      if (bucket.to === undefined || lanes.has(bucket.to)) continue;
      if (bucket.tokens + (now - bucket.updated) * rate(bucket.rule, now) >= bucket.capacity)
        buckets.delete(key);
    }
    for (const [to, until] of holds) if (until <= now) holds.delete(to);
  };

  const touch = (key: string, field: "changed" | "looked"): void => {
    const now = clock.now();
    const times = messages.get(key);
    if (times !== undefined) {
      times[field] = now;
      return;
    }
    if (messages.size >= PRUNE_AT)
      for (const [old, { changed, looked }] of messages)
        if (Math.max(changed, looked) + longestSpacing <= now) messages.delete(old);
    const never = Number.NEGATIVE_INFINITY;
    messages.set(
      key,
      field === "changed" ? { changed: now, looked: never } : { changed: never, looked: now },
    );
  };

  /**
   * Take a token of every bucket of `lane` (refilled to now) and release its first waiter. A
   * full bucket is opened again: the whole allowance is held back until this one is answered.
   */
  const releaseFirst = (lane: Lane, now: number): void => {
    const ticket = takeTokens(lane.own, lane.shared, headKind(lane), now);
    const waiter = lane.queue.shift() as Waiter;
    waiter.done = true;
    if (waiter.onAbort) waiter.signal?.removeEventListener("abort", waiter.onAbort);
    waiter.resolve(ticket);
  };

  /** Take the tokens of a send of `kind` from buckets refilled to `now`: the ticket of its release. */
  const takeTokens = (
    own: readonly Bucket[],
    shared: readonly Bucket[],
    kind: keyof RequestCounts,
    now: number,
  ): Ticket => ({ releasedAt: now, opened: takeFrom(shared, kind, takeFrom(own, kind, undefined)) });

  /** Take the tokens of a send of `kind` from each of `of`: `opened` with the full buckets it opened added. */
  const takeFrom = (
    of: readonly Bucket[],
    kind: keyof RequestCounts,
    opened: Bucket[] | undefined,
  ): Bucket[] | undefined => {
    let out = opened;
    for (const bucket of of) {
      if (bucket.tokens >= bucket.capacity - EPSILON) {
        bucket.capacity = bucket.rule.capacity;
        bucket.tokens = Math.min(bucket.tokens, bucket.capacity);
        out ??= [];
        out.push(bucket);
      }
      bucket.tokens -= cost(bucket, kind);
    }
    return out;
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
      const wait = ownWait(lane.to, lane.own, now, headKind(lane));
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
      releaseFirst(lane, now);
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
        if (head === undefined || head.done || ownWait(lane.to, lane.own, now, head.kind) > 0) {
          ready.shift();
          lane.queued = false;
          advance(lane);
          continue;
        }
        const wait = waitFor(lane.shared, now, head.kind);
        if (wait > 0) {
          readyTimer = timer(wait, () => {
            readyTimer = undefined;
            drain();
          });
          return;
        }
        ready.shift();
        lane.queued = false;
        releaseFirst(lane, now);
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
    acquire(to, signal, retry = false, kind = "text") {
      signal?.throwIfAborted();
      const lane = laneOf(to);
      return new Promise<Ticket>((resolve, reject) => {
        const waiter: Waiter = { resolve, reject, signal, onAbort: undefined, done: false, kind };
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
    take(to, kind = "text") {
      // A lane is there while operations to `to` wait (or line up for a global token).
      if (lanes.has(to)) return undefined;
      const now = clock.now();
      const own = applicable(to, now, "target");
      if (ownWait(to, own, now, kind) > 0) return undefined;
      const shared = applicable(to, now, "global");
      if (shared.length > 0 && (ready.peek() !== undefined || waitFor(shared, now, kind) > 0))
        return undefined;
      return takeTokens(own, shared, kind, now);
    },
    pause(to, ms) {
      hold(to, ms, "target");
    },
    limited(to, ms, scope = "target") {
      const now = clock.now();
      // 429s for requests that were in flight together (a stall on either side answers them
      // at once, for one target or for many) are one signal: a rule learns once per hold.
      for (const rule of rules) {
        if (rule.scope !== scope || (rule.match !== undefined && !rule.match.test(to))) continue;
        if (now < rule.quietUntil) continue;
        const current = rate(rule, now) / rule.perMs;
        rule.learned = Math.max(FLOOR, current * DECREASE);
        rule.learnedAt = now;
        rule.quietUntil = now + ms;
      }
      hold(to, ms, scope);
    },
    async spaced(key, ms, signal, orLooked = false) {
      longestSpacing = Math.max(longestSpacing, ms);
      const times = messages.get(key);
      if (times === undefined) return;
      const wait = (orLooked ? Math.max(times.changed, times.looked) : times.changed) + ms - clock.now();
      if (wait > 0) await clock.sleep(wait, signal);
    },
    changed(key) {
      touch(key, "changed");
    },
    looked(key) {
      touch(key, "looked");
    },
    answered(ticket) {
      const { releasedAt, opened } = ticket as Ticket;
      if (opened === undefined) return;
      const now = clock.now();
      const measured = Math.max(minLatencyMs, now - releasedAt);
      for (const bucket of opened) {
        const capacity = heldBackBurst(bucket.rule.burst, bucket.rule.declaredPerMs, measured);
        if (capacity <= bucket.capacity) continue;
        waitFor([bucket], now);
        bucket.tokens += capacity - bucket.capacity;
        bucket.capacity = capacity;
        // Waiters it holds up may go now.
        const lane = bucket.to === undefined ? undefined : lanes.get(bucket.to);
        if (lane !== undefined && !lane.queued) advance(lane);
        else drain();
      }
    },
  };
}
