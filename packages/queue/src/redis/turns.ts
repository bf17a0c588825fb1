/**
 * Accounts take turns within each partition, and can be paused. BullMQ's open-source edition
 * has no groups, so the turn is the job's BullMQ priority: start-time fair queuing with one
 * round per partition. A job is tagged at enqueue with `max(its account's last tag + 1,
 * the partition's round)`, the round being the tag of the job the partition last started;
 * BullMQ takes the lowest tag first (FIFO among equal tags). So an account with a backlog has
 * one job per round, an account that was idle joins the current round, and a backlog delays
 * another account's job by at most the job running in the partition. One account's tags only
 * grow, so its jobs (and each chat's) keep their order. When no tagged job waits in the
 * partition, its turns are reset, which keeps tags far below BullMQ's priority limit.
 *
 * A paused account's jobs are not run: those queued while it is paused wait in a `parked`
 * list, and those a worker takes from the partition go to a `drained` list (they are older:
 * they were queued before the pause) keeping their tag. Resuming puts drained then parked
 * jobs back in the partition in order, then un-pauses once both lists are empty; jobs queued
 * meanwhile are parked behind them, and a job of a higher tag that a worker takes before the
 * drained ones are back is drained behind them: no chat's order changes, nothing is lost.
 */
import type { keysOf, RedisClient } from "./keys.js";

/** BullMQ's highest priority number (2^21 - 1); tags past it share it (FIFO, order kept). */
const PRIORITY_LIMIT = 2 ** 21 - 1;

/**
 * KEYS: turns, paused; ARGV: job id, account scope, "1" when resuming (do not park).
 * Returns the job's tag (the same on a repeat), or -1 when the account is paused.
 */
const TAG = `
if ARGV[3] ~= '1' and redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return -1 end
local found = redis.call('HMGET', KEYS[1], ARGV[1], 'round', 'a:' .. ARGV[2])
if found[1] then return tonumber(found[1]) end
local tag = math.max(tonumber(found[3] or '-1') + 1, tonumber(found[2] or '0'))
redis.call('HSET', KEYS[1], 'a:' .. ARGV[2], tag, ARGV[1], tag)
redis.call('HINCRBY', KEYS[1], 'n', 1)
return tag
`;

/**
 * KEYS: turns, paused, drained; ARGV: job id, account scope, the job's JSON or ''. A worker
 * took the job. It is held while its account is paused, and while it is being resumed if a
 * held job of a lower tag is not back yet (a job taken meanwhile must not overtake it). Held:
 * appended to the drained list with its tag (2), or 1 when no JSON was given (call again
 * with it). Else its turn becomes the round (the turns are reset when it was the last tagged
 * job) and 0: run it.
 */
const START = `
local state = redis.call('HGET', KEYS[2], ARGV[2])
local found = redis.call('HMGET', KEYS[1], ARGV[1], 'round')
local tag = found[1]
local held = state == 'paused'
if state == 'resuming' and tag then
  local head = redis.call('LINDEX', KEYS[3], 0)
  held = head and tonumber(tag) > tonumber(string.match(head, '^%d+'))
end
if held then
  if ARGV[3] == '' then return 1 end
  redis.call('RPUSH', KEYS[3], (tag or '0') .. ' ' .. ARGV[3])
  return 2
end
if not tag then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HINCRBY', KEYS[1], 'n', -1) <= 0 then
  redis.call('DEL', KEYS[1])
elseif tonumber(tag) > tonumber(found[2] or '0') then
  redis.call('HSET', KEYS[1], 'round', tag)
end
return 0
`;

/**
 * KEYS: paused, parked; ARGV: account scope, job JSON. Parks the job while the account is
 * paused or being resumed: 1, else 0.
 */
const PARK = `
if not redis.call('HGET', KEYS[1], ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
return 1
`;

/** KEYS: paused, drained, parked; ARGV: account scope. Un-pauses once both lists are empty: 1, else 0. */
const FINISH = `
if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'resuming' then return 1 end
if redis.call('LLEN', KEYS[2]) > 0 or redis.call('LLEN', KEYS[3]) > 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`;

/** KEYS: a list; ARGV: the item expected at its head. Removes the head if it is that item. */
const SHIFT_IF = `
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) end
return 0
`;

/** A job's place in its partition, as the scripts see it. */
export interface TurnOf {
  /** Partition number. */
  partition: number;
  /** The account's scope ({@link accountScope}). */
  scope: string;
  /** BullMQ's job id. */
  jobId: string;
}

/** The turns of an outbox's partitions (see the module comment). */
export interface Turns {
  /**
   * Tag a job about to be added: its BullMQ priority, or `undefined` when its account is
   * paused and the job (`json`) was parked instead. `resuming` puts a held job back.
   */
  admit(turn: TurnOf, json: () => string, resuming?: boolean): Promise<number | undefined>;
  /** A worker took the job: `false` when its account is paused and the job was drained (do not run it). */
  start(turn: TurnOf, json: () => string): Promise<boolean>;
  /** Pause an account in every partition. */
  pause(scope: string): Promise<void>;
  /** Resume an account: `readd` puts each held job (JSON) back in partition `n`, then it is un-paused. */
  resume(scope: string, readd: (n: number, json: string) => Promise<void>): Promise<void>;
}

/** The turns of the outbox whose keys are `keys`, over `partitions` partitions. */
export function createTurns(redis: RedisClient, keys: ReturnType<typeof keysOf>, partitions: number): Turns {
  const each = (run: (n: number) => Promise<unknown>): Promise<unknown> =>
    Promise.all(Array.from({ length: partitions }, (_, n) => run(n)));

  return {
    async admit(turn, json, resuming = false) {
      for (;;) {
        const tag = Number(
          await redis.eval(
            TAG,
            2,
            keys.turns(turn.partition),
            keys.paused(turn.partition),
            turn.jobId,
            turn.scope,
            resuming ? "1" : "0",
          ),
        );
        if (tag >= 0) return Math.min(tag + 1, PRIORITY_LIMIT);
        // Paused: park it, unless the account was resumed in between (then tag it again).
        const parked = await redis.eval(
          PARK,
          2,
          keys.paused(turn.partition),
          keys.held(turn.partition, turn.scope, "parked"),
          turn.scope,
          json(),
        );
        if (Number(parked) === 1) return undefined;
      }
    },
    async start(turn, json) {
      const run = (data: string) =>
        redis.eval(
          START,
          3,
          keys.turns(turn.partition),
          keys.paused(turn.partition),
          keys.held(turn.partition, turn.scope, "drained"),
          turn.jobId,
          turn.scope,
          data,
        );
      // The JSON is sent only when the job is to be held (rare).
      const first = Number(await run(""));
      return first === 0 || (first === 1 && Number(await run(json())) === 0);
    },
    async pause(scope) {
      await each((n) => redis.hset(keys.paused(n), scope, "paused"));
    },
    async resume(scope, readd) {
      await each((n) => redis.hset(keys.paused(n), scope, "resuming"));
      await each(async (n) => {
        const lists = [keys.held(n, scope, "drained"), keys.held(n, scope, "parked")] as const;
        for (;;) {
          for (const list of lists)
            for (
              let entry = await redis.lindex(list, 0);
              entry !== null;
              entry = await redis.lindex(list, 0)
            ) {
              // Added before it is removed (and removed only if still first, in case two
              // processes resume at once): a crash in between re-adds it (the journal and the
              // job id keep that from sending twice) instead of losing it. Drained entries
              // start with the job's tag.
              await readd(n, list === lists[0] ? entry.slice(entry.indexOf(" ") + 1) : entry);
              await redis.eval(SHIFT_IF, 1, list, entry);
            }
          if (Number(await redis.eval(FINISH, 3, keys.paused(n), ...lists, scope)) === 1) return;
        }
      });
    },
  };
}
