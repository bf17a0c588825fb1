/**
 * The queue of injected faults every platform emulator keeps (conformance.md): `inject` adds
 * a fault for the next `times` calls (default 1), `next` takes the fault for the call at hand,
 * honouring each fault's target (`method`, `skip`). A `reset-before-write` fault strikes a
 * connection, not a request: `refuse` takes it when a connection opens, once `answered`
 * has armed it. A fault the emulator could never apply (an unknown kind, a method it does
 * not answer) is refused at `inject`, so a test never believes it survived a fault it never saw.
 */
import type { Fault } from "./observed.js";

/** Every fault kind; an emulator applies each of them (conformance.md). */
export const FAULT_KINDS: ReadonlyArray<Fault["kind"]> = [
  "rate-limit",
  "server-error",
  "reset",
  "reject",
  "reset-before-write",
  "reset-after-processed",
  "timeout-after-processed",
];

/**
 * A fault the emulator cannot apply, thrown by `inject`: its `kind` is none of
 * {@link FAULT_KINDS}, or its `method` is none the emulator answers (`methods` lists those).
 */
export class UnknownFaultError extends TypeError {
  /** The fault's kind as given. */
  readonly kind: string;
  /** The fault's target method, when that is what the emulator does not know. */
  readonly method: string | undefined;
  /** The method names the emulator answers (its fault targets). */
  readonly methods: readonly string[];

  constructor(fault: { kind: string; method?: string | undefined }, methods: readonly string[]) {
    const known = FAULT_KINDS.includes(fault.kind as Fault["kind"]);
    super(
      known
        ? `this emulator has no method ${JSON.stringify(fault.method)} to fault; its fault targets are ${methods.join(", ")}`
        : `unknown fault kind ${JSON.stringify(fault.kind)}; the kinds are ${FAULT_KINDS.join(", ")}`,
    );
    this.name = "UnknownFaultError";
    this.kind = fault.kind;
    this.method = known ? fault.method : undefined;
    this.methods = methods;
  }
}

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

/**
 * An empty {@link FaultQueue} for an emulator answering `methods` (its fault targets, compared
 * without regard to case): `inject` throws {@link UnknownFaultError} for a fault of another
 * method or of an unknown kind.
 */
export function createFaultQueue(methods: readonly string[]): FaultQueue {
  const known = new Set(methods.map((method) => method.toLowerCase()));
  const faults: Queued[] = [];
  const take = (entry: Queued): void => {
    entry.left -= 1;
    if (entry.left <= 0) faults.splice(faults.indexOf(entry), 1);
  };
  return {
    inject(fault) {
      if (
        !FAULT_KINDS.includes(fault.kind) ||
        (fault.method !== undefined && !known.has(fault.method.toLowerCase()))
      )
        throw new UnknownFaultError(fault, methods);
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
