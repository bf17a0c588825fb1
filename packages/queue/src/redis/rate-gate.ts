/**
 * Platform rate limits shared by every worker: the adapter's `rateLimits` as token buckets in
 * Redis, taken atomically by a Lua script on Redis's own clock (`TIME`), so the processes'
 * clocks never matter. All buckets of a call are taken together, in one round trip: a token
 * not there yet is reserved (the bucket goes into debt) and the call waits for the time it
 * falls due, without asking again.
 */
import type { Clock, PacingOptions, RateLimit } from "@outbox/core";
import { heldBackBurst, limitRates, resolvePacing } from "@outbox/core/internal";
import type { RedisClient } from "./keys.js";

/**
 * KEYS: buckets; ARGV: held-back capacity and rate per ms of each. Takes a token of each
 * (reserving it when the bucket has none now) and returns the ms until the last of them is
 * due, then 1 for each bucket the take opened (found full), else 0. A bucket's `cap` is its
 * capacity now: an opened bucket holds its latency allowance back (`HOLD` sets what stays held).
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local out = {0}
for i, key in ipairs(KEYS) do
  local base = tonumber(ARGV[2 * i - 1])
  local rate = tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', key, 'tokens', 'at', 'cap')
  local cap = tonumber(state[3]) or base
  local level = math.min(cap, (tonumber(state[1]) or cap) + math.max(0, now - (tonumber(state[2]) or now)) * rate)
  out[i + 1] = 0
  if level >= cap then
    cap = base
    level = math.min(level, base)
    out[i + 1] = 1
  end
  level = level - 1
  if level < 0 then out[1] = math.max(out[1], math.ceil(-level / rate)) end
  redis.call('HSET', key, 'tokens', tostring(level), 'at', tostring(now), 'cap', tostring(cap))
  redis.call('PEXPIRE', key, math.ceil((cap - level) / rate) + 1000)
end
return out
`;

/**
 * KEYS: the buckets of an answered call; ARGV: for each, its rate per ms, the capacity the
 * answer times allow, and 1 when the call opened it. Sets a bucket's capacity (and moves its
 * tokens by as much) to that: up only for the call that opened it (whose answer bounds when
 * the platform started counting), down for any.
 */
const HOLD = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[3 * i - 2])
  local allowed = tonumber(ARGV[3 * i - 1])
  local state = redis.call('HMGET', key, 'tokens', 'at', 'cap')
  local cap = tonumber(state[3])
  if cap and (allowed < cap or (allowed > cap and ARGV[3 * i] == '1')) then
    local level = math.min(cap, tonumber(state[1]) + math.max(0, now - tonumber(state[2])) * rate)
    level = level + allowed - cap
    redis.call('HSET', key, 'tokens', tostring(level), 'at', tostring(now), 'cap', tostring(allowed))
    redis.call('PEXPIRE', key, math.ceil((allowed - level) / rate) + 1000)
  end
end
return 0
`;

/** Buckets whose hold-back a gate remembers; past that it forgets them all (and sets them again). */
const HELD_KEPT = 10_000;

interface Rule {
  index: number;
  scope: RateLimit["scope"];
  match: RegExp | undefined;
  burst: number;
  declaredPerMs: number;
  capacity: number;
  perMs: number;
}

/** Answer times of one platform's calls in a worker, shared by its accounts' gates. */
export interface LatencyWindow {
  /** A call's time from its release (after any wait) to its answer, in ms. */
  note(ms: number): void;
  /** The longest of the last few noted (0 before any). */
  longest(): number;
}

/** A {@link LatencyWindow} over the last `size` calls. */
export function latencyWindow(size = 128): LatencyWindow {
  const times: number[] = [];
  let next = 0;
  return {
    note(ms) {
      times[next] = ms;
      next = (next + 1) % size;
    },
    longest: () => Math.max(0, ...times),
  };
}

/**
 * The gate for one platform: takes a token of every limit that applies to `to` in Redis and
 * waits until they are due, then resolves with the function to call once the call has its
 * answer. Capacities and rates follow the in-process pacer with the same `pacing`: `margin`
 * below each rate, and a full bucket holds back what `latencyMs` refills until the call that
 * opened it is answered. From then on each answer sets what its buckets hold back: what
 * refills in the longest of the recent answer times in `latency` (from release to answer),
 * `minLatencyMs` and, for a bucket the call opened, its time from take to answer (at most
 * `latencyMs`, what a bucket holds back when it opens). Requests
 * released a second apart can reach the platform closer together by as much as their times
 * to it differ; what stays held back absorbs that. Only the opening call's answer gives any
 * back (it bounds when the platform started counting); a slower answer takes more back.
 * A wait that aborts keeps its tokens taken (the gate errs toward fewer calls).
 */
export function createRateGate(
  redis: RedisClient,
  bucketKey: (rule: number, to?: string) => string,
  limits: readonly RateLimit[],
  clock: Clock,
  pacing: PacingOptions = {},
  latency: LatencyWindow = latencyWindow(),
): (to: string, signal?: AbortSignal) => Promise<(() => void) | undefined> {
  const { margin, latencyMs, minLatencyMs } = resolvePacing(pacing);
  const rules: Rule[] = limits.map((limit, index) => ({
    ...limitRates(limit, margin, latencyMs),
    index,
    scope: limit.scope,
    match: limit.match === undefined ? undefined : new RegExp(limit.match),
  }));
  /** What this gate last set each bucket to hold back, ms (forgotten past {@link HELD_KEPT}). */
  const heldSet = new Map<string, number>();
  return async (to, signal) => {
    const applicable = rules.filter((rule) => rule.match === undefined || rule.match.test(to));
    if (applicable.length === 0) return undefined;
    signal?.throwIfAborted();
    const keys = applicable.map((rule) => bucketKey(rule.index, rule.scope === "target" ? to : undefined));
    const args = applicable.flatMap((rule) => [String(rule.capacity), String(rule.perMs)]);
    const asked = clock.now();
    const [wait, ...opened] = (await redis.eval(TAKE, keys.length, ...keys, ...args)) as number[];
    if ((wait as number) > 0) await clock.sleep(wait as number, signal);
    const released = clock.now();
    return () => {
      const now = clock.now();
      latency.note(now - released);
      // From the take (no later than Redis opened the buckets) to the answer (no earlier
      // than the platform counted the call): the most the platform can have started late.
      // Never more than the allowance a bucket opens with: `latencyMs` bounds it.
      const measured = Math.max(latency.longest(), opened.includes(1) ? now - asked : 0);
      // Rounded up to a power of two: a hold-back that creeps up is set a few times, not at
      // every answer.
      const held = Math.min(
        latencyMs,
        Math.max(minLatencyMs, 2 ** Math.ceil(Math.log2(Math.max(1, measured)))),
      );
      // Only a bucket this call opened, or one whose hold-back grew since this gate last set
      // it, has anything to change: most answers send nothing.
      const changed = applicable.flatMap((rule, i) => {
        const key = keys[i] as string;
        if (opened[i] !== 1 && held <= (heldSet.get(key) ?? 0)) return [];
        heldSet.set(key, held);
        return [
          {
            key,
            args: [
              String(rule.perMs),
              String(heldBackBurst(rule.burst, rule.declaredPerMs, held)),
              String(opened[i]),
            ],
          },
        ];
      });
      if (heldSet.size > HELD_KEPT) heldSet.clear();
      if (changed.length === 0) return;
      // One that fails leaves the buckets as they are: the next answer sets them.
      redis
        .eval(HOLD, changed.length, ...changed.map(({ key }) => key), ...changed.flatMap(({ args }) => args))
        .catch(() => undefined);
    };
  };
}
