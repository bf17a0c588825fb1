/**
 * The queue of injected faults every platform emulator keeps (conformance.md): `inject` adds
 * a fault for the next `times` calls (default 1), `next` takes the fault for the call at hand,
 * honouring each fault's target (`method`, `skip`). A `reset-before-write` fault strikes a
 * connection, not a request: `refuse` takes it when a connection opens, once `answered`
 * has armed it.
 */
import type { Fault } from "./observed.js";

/** Faults waiting for the emulator's next calls, oldest first. */
export interface FaultQueue {
  /** Queue a fault for the next `fault.times` calls (default 1), after those already queued. */
  inject(fault: Fault): void;
  /**
   * The fault the current request to `method` must suffer, if any (consumes one of its
   * `times`); the oldest queued fault whose target matches, after its `skip`. Never a
   * `reset-before-write` (see {@link FaultQueue.refuse}).
   */
  next(method?: string): Fault | undefined;
  /** The emulator answered a request to `method`: arms a `reset-before-write` waiting for it. */
  answered(method: string): void;
  /** Whether the connection opening now must be reset before the request is written (consumes one). */
  refuse(): boolean;
  /** Whether a `reset-before-write` is queued: answers then close their connection, so each request opens one. */
  refusing(): boolean;
}

interface Queued {
  fault: Fault;
  /** Calls (or connections) it still applies to. */
  left: number;
  /** Matching calls still to let through. */
  skip: number;
  /** A `reset-before-write` whose trigger answer has come. */
  armed: boolean;
}

/** Whether a request to `method` is one the fault targets. */
function targets(fault: Fault, method: string | undefined): boolean {
  return fault.method === undefined || fault.method.toLowerCase() === method?.toLowerCase();
}

/** An empty {@link FaultQueue}. */
export function createFaultQueue(): FaultQueue {
  const faults: Queued[] = [];
  const take = (entry: Queued): void => {
    entry.left -= 1;
    if (entry.left <= 0) faults.splice(faults.indexOf(entry), 1);
  };
  return {
    inject(fault) {
      const times = "times" in fault && fault.times !== undefined ? fault.times : 1;
      const armed =
        fault.kind === "reset-before-write" && fault.method === undefined && (fault.skip ?? 0) === 0;
      faults.push({ fault, left: times, skip: fault.skip ?? 0, armed });
    },
    next(method) {
      for (const entry of faults) {
        if (entry.fault.kind === "reset-before-write" || !targets(entry.fault, method)) continue;
        if (entry.skip > 0) {
          entry.skip -= 1;
          continue;
        }
        take(entry);
        return entry.fault;
      }
      return undefined;
    },
    answered(method) {
      for (const entry of faults) {
        if (entry.fault.kind !== "reset-before-write" || entry.armed || !targets(entry.fault, method))
          continue;
        if (entry.skip > 0) entry.skip -= 1;
        else entry.armed = true;
      }
    },
    refuse() {
      const entry = faults.find((queued) => queued.armed);
      if (entry === undefined) return false;
      take(entry);
      return true;
    },
    refusing() {
      return faults.some((entry) => entry.fault.kind === "reset-before-write");
    },
  };
}
