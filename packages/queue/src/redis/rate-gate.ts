/**
 * Platform rate limits shared by every worker: the adapter's `rateLimits` as token buckets in
 * Redis, taken atomically by a Lua script on Redis's own clock (`TIME`), so the processes'
 * clocks never matter. All buckets of a call are taken together or none is.
 */
import type { Clock, PacingOptions, RateLimit } from "@outbox/core";
import { DEFAULT_LATENCY_MS, DEFAULT_PACING_MARGIN, limitRates } from "@outbox/core/internal";
import type { RedisClient } from "./keys.js";

/** KEYS: buckets; ARGV: capacity and rate per ms of each. Returns 0 (taken) or the ms to wait. */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local wait = 0
local tokens = {}
for i, key in ipairs(KEYS) do
  local capacity = tonumber(ARGV[2 * i - 1])
  local rate = tonumber(ARGV[2 * i])
  local state = redis.call('HMGET', key, 'tokens', 'at')
  local level = tonumber(state[1]) or capacity
  local at = tonumber(state[2]) or now
  level = math.min(capacity, level + math.max(0, now - at) * rate)
  tokens[i] = level
  if level < 1 then wait = math.max(wait, (1 - level) / rate) end
end
if wait > 0 then return math.ceil(wait) end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 'tokens', tostring(tokens[i] - 1), 'at', tostring(now))
  redis.call('PEXPIRE', key, math.ceil(tonumber(ARGV[2 * i - 1]) / tonumber(ARGV[2 * i])) + 1000)
end
return 0
`;

interface Rule {
  index: number;
  scope: RateLimit["scope"];
  match: RegExp | undefined;
  capacity: number;
  perMs: number;
}

/**
 * The gate for one platform: waits until every limit that applies to `to` has a token in
 * Redis and takes them. Capacities and rates follow the in-process pacer (`margin` below
 * each rate, bursts lowered by what `latencyMs` refills).
 */
export function createRateGate(
  redis: RedisClient,
  bucketKey: (rule: number, to?: string) => string,
  limits: readonly RateLimit[],
  clock: Clock,
  pacing: Pick<PacingOptions, "margin" | "latencyMs"> = {},
): (to: string, signal?: AbortSignal) => Promise<void> {
  const margin = pacing.margin ?? DEFAULT_PACING_MARGIN;
  const latencyMs = pacing.latencyMs ?? DEFAULT_LATENCY_MS;
  const rules: Rule[] = limits.map((limit, index) => {
    const { capacity, perMs } = limitRates(limit, margin, latencyMs);
    return {
      index,
      scope: limit.scope,
      match: limit.match === undefined ? undefined : new RegExp(limit.match),
      capacity,
      perMs,
    };
  });
  return async (to, signal) => {
    const applicable = rules.filter((rule) => rule.match === undefined || rule.match.test(to));
    if (applicable.length === 0) return;
    const keys = applicable.map((rule) => bucketKey(rule.index, rule.scope === "target" ? to : undefined));
    const args = applicable.flatMap((rule) => [String(rule.capacity), String(rule.perMs)]);
    for (;;) {
      signal?.throwIfAborted();
      const wait = Number(await redis.eval(TAKE, keys.length, ...keys, ...args));
      if (wait <= 0) return;
      // A little jitter so workers woken together do not all ask at the same instant.
      await clock.sleep(wait + Math.random() * 3, signal);
    }
  };
}
