import type { Clock } from "../adapter/types.js";

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted.", "AbortError");
}

/** The real clock: `Date.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(abortReason(signal as AbortSignal));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** A clock that moves only when told to: for tests and benchmarks (no real waiting). */
export interface ManualClock extends Clock {
  /** Move time forward by `ms`, waking sleepers in time order and letting their work run. */
  advance(ms: number): Promise<void>;
  /**
   * Drive `work` to completion in virtual time: after each event-loop turn, jump to the
   * next wake-up. Resolves or rejects like `work`. Meant for work that waits only on the
   * clock and on in-memory promises (real I/O in between may see time jump ahead).
   */
  run<T>(work: Promise<T>): Promise<T>;
  /** How many sleepers are waiting. */
  readonly pending: number;
  /**
   * When the earliest sleeper wakes (clock milliseconds), `undefined` when none waits: a
   * driver that must not move time while other work is under way (real I/O) advances to
   * it once that work is done, instead of letting {@link ManualClock.run} jump.
   */
  readonly next: number | undefined;
}

interface Sleeper {
  at: number;
  seq: number;
  wake: () => void;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Create a {@link ManualClock} starting at `start` milliseconds (default 0). */
export function createManualClock(start = 0): ManualClock {
  let now = start;
  let seq = 0;
  const sleepers: Sleeper[] = [];
  const next = (): Sleeper | undefined => {
    let best: Sleeper | undefined;
    for (const s of sleepers) if (!best || s.at < best.at || (s.at === best.at && s.seq < best.seq)) best = s;
    return best;
  };
  const fire = (sleeper: Sleeper): void => {
    sleepers.splice(sleepers.indexOf(sleeper), 1);
    now = Math.max(now, sleeper.at);
    sleeper.wake();
  };
  return {
    now: () => now,
    get pending() {
      return sleepers.length;
    },
    get next() {
      return next()?.at;
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(abortReason(signal));
        const sleeper: Sleeper = { at: now + Math.max(0, ms), seq: seq++, wake: resolve };
        signal?.addEventListener(
          "abort",
          () => {
            const index = sleepers.indexOf(sleeper);
            if (index >= 0) sleepers.splice(index, 1);
            reject(abortReason(signal));
          },
          { once: true },
        );
        sleepers.push(sleeper);
      });
    },
    async advance(ms) {
      const until = now + ms;
      await turn();
      for (let s = next(); s !== undefined && s.at <= until; s = next()) {
        fire(s);
        await turn();
      }
      now = until;
    },
    async run(work) {
      let settled = false;
      const done = work.finally(() => {
        settled = true;
      });
      done.catch(() => undefined);
      while (!settled) {
        await turn();
        const sleeper = next();
        if (!settled && sleeper !== undefined) fire(sleeper);
      }
      return done;
    },
  };
}
