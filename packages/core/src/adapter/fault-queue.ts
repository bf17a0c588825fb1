/**
 * The queue of injected faults every platform emulator keeps (conformance.md): `inject` adds
 * a fault for the next `times` calls (default 1), `next` takes the fault for the call at hand.
 */
import type { Fault } from "./observed.js";

/** Faults waiting for the emulator's next calls, oldest first. */
export interface FaultQueue {
  /** Queue a fault for the next `fault.times` calls (default 1), after those already queued. */
  inject(fault: Fault): void;
  /** The fault the current call must suffer, if any (consumes one of its `times`). */
  next(): Fault | undefined;
}

/** An empty {@link FaultQueue}. */
export function createFaultQueue(): FaultQueue {
  const faults: Array<{ fault: Fault; left: number }> = [];
  return {
    inject(fault) {
      faults.push({ fault, left: "times" in fault && fault.times !== undefined ? fault.times : 1 });
    },
    next() {
      const head = faults[0];
      if (!head) return undefined;
      head.left -= 1;
      if (head.left <= 0) faults.shift();
      return head.fault;
    },
  };
}
