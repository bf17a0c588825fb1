/**
 * Reads an agent's events one at a time, racing each read against the caller's abort signal
 * and, when asked, an idle timer on the injected clock.
 */
import type { Clock } from "../adapter/types.js";
import type { AgentEvent } from "./agent-event.js";

/** What one read gave. */
export type ReadOutcome =
  | { kind: "event"; event: AgentEvent }
  | { kind: "idle" }
  | { kind: "end" }
  | { kind: "aborted" }
  | { kind: "failed"; error: unknown };

/** Sequential reader of an event stream. */
export interface EventReader {
  /** The next event; `idle` when `idleMs` passed first (the pending read is kept for the next call). */
  next(idleMs?: number): Promise<ReadOutcome>;
  /** Stop the stream (its `return()`), without waiting for it. */
  close(): void;
}

const never = new Promise<never>(() => undefined);

/** Create a reader over `events`. */
export function createEventReader(
  events: AsyncIterable<AgentEvent>,
  clock: Clock,
  signal: AbortSignal | undefined,
): EventReader {
  const iterator = events[Symbol.asyncIterator]();
  let pending: Promise<ReadOutcome> | undefined;
  const aborted: Promise<ReadOutcome> =
    signal === undefined
      ? never
      : new Promise((resolve) => {
          if (signal.aborted) resolve({ kind: "aborted" });
          else signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
        });
  return {
    async next(idleMs) {
      if (signal?.aborted) return { kind: "aborted" };
      pending ??= Promise.resolve()
        .then(() => iterator.next())
        .then(
          (result): ReadOutcome => (result.done ? { kind: "end" } : { kind: "event", event: result.value }),
          (error: unknown): ReadOutcome => ({ kind: "failed", error }),
        );
      let outcome: ReadOutcome;
      if (idleMs === undefined || idleMs <= 0)
        outcome = signal === undefined ? await pending : await Promise.race([pending, aborted]);
      else {
        const timer = new AbortController();
        const idle = clock.sleep(idleMs, timer.signal).then(
          (): ReadOutcome => ({ kind: "idle" }),
          () => never,
        );
        outcome = await Promise.race([pending, aborted, idle]);
        timer.abort();
      }
      if (outcome.kind !== "idle") pending = undefined;
      return outcome;
    },
    close() {
      Promise.resolve()
        .then(() => iterator.return?.())
        .catch(() => undefined);
    },
  };
}
