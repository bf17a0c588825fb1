/**
 * Injected faults for the emulated web channel (conformance.md): the store the adapter
 * writes to fails its next appends the way a busy or broken database behind the inbox
 * would, with core's typed errors, and stores nothing for a failed call, except after a
 * fault that strikes once the call was processed (`reset-after-processed`,
 * `timeout-after-processed`): the message is stored and the call still fails.
 */
import { type Fault, PlatformError, RateLimitedError, TransportError } from "@outbox/core";
import { createFaultQueue, type FaultQueue } from "@outbox/core/testing";
import type { WebMessageStore } from "../store/types.js";

/** A store whose `append` suffers the queued faults, with its queue. */
export function createFaultyStore(store: WebMessageStore): { store: WebMessageStore; faults: FaultQueue } {
  const faults = createFaultQueue(["append"]);
  return {
    faults,
    store: {
      ...store,
      async append(message) {
        if (faults.refuse()) throw faultError({ kind: "reset-before-write" });
        const fault = faults.next("append");
        if (fault === undefined) {
          const stored = await store.append(message);
          faults.answered("append");
          return stored;
        }
        if (fault.kind === "reset-after-processed" || fault.kind === "timeout-after-processed")
          await store.append(message);
        throw faultError(fault);
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
    case "reset-after-processed":
      return new TransportError("web store connection reset before it answered", { ambiguous: true });
    case "timeout-after-processed":
      return new TransportError("web store did not answer in time", { ambiguous: true });
    case "reset-before-write":
      return new TransportError("web store connection refused", { ambiguous: false });
    case "reject":
      return new PlatformError(`web store refused the message: ${fault.description}`, {
        method: "append",
        status: 400,
        description: fault.description,
      });
  }
}
