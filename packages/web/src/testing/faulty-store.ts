/**
 * Injected faults for the emulated web channel (conformance.md): the store the adapter
 * writes to fails its next appends the way a busy or broken database behind the inbox
 * would, with core's typed errors, and stores nothing for a failed call.
 */
import {
  createFaultQueue,
  type Fault,
  type FaultQueue,
  PlatformError,
  RateLimitedError,
  TransportError,
} from "@outbox/core";
import type { WebMessageStore } from "../store/types.js";

/** A store whose `append` suffers the queued faults, with its queue. */
export function createFaultyStore(store: WebMessageStore): { store: WebMessageStore; faults: FaultQueue } {
  const faults = createFaultQueue();
  return {
    faults,
    store: {
      ...store,
      async append(message) {
        const fault = faults.next();
        if (fault !== undefined) throw faultError(fault);
        return store.append(message);
      },
    },
  };
}

function faultError(fault: Fault): Error {
  switch (fault.kind) {
    case "rate-limit":
      return new RateLimitedError(`web store busy: retry after ${fault.retryAfterMs} ms`, fault.retryAfterMs);
    case "server-error":
      return new PlatformError(`web store failed (${fault.status})`, {
        method: "append",
        status: fault.status,
        description: "store unavailable",
      });
    case "reset":
      return new TransportError("web store connection reset before it answered", { ambiguous: true });
    case "reject":
      return new PlatformError(`web store refused the message: ${fault.description}`, {
        method: "append",
        status: 400,
        description: fault.description,
      });
  }
}
