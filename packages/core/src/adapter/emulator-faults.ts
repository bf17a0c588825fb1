/**
 * Fault injection on an emulator's HTTP server, shared by the platform emulators: connections
 * reset before the request is written (`reset-before-write`), and answers dropped or withheld
 * after the request was processed (`reset-after-processed`, `timeout-after-processed`). The
 * request-level faults an emulator answers itself (429, 5xx, 400, `reset`) come from the same
 * queue through {@link EmulatorFaults.next}.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { createFaultQueue } from "./fault-queue.js";
import type { Fault } from "./observed.js";

/** The faults of one emulator's server. */
export interface EmulatorFaults {
  /** Queue a fault (the emulator's `inject`); throws `UnknownFaultError` for one it cannot apply. */
  inject(fault: Fault): void;
  /**
   * The fault a request to `method` must suffer, if any. An after-processed fault is applied
   * here to `res`: the emulator then processes the request as usual, and its answer is
   * dropped (the socket reset) or withheld; the caller answers the other kinds itself.
   * Every request must come through here once its method is known.
   */
  next(method: string, req: IncomingMessage, res: ServerResponse): Fault | undefined;
  /** Connections reset before their request was written. */
  readonly refusedConnections: number;
}

/**
 * Install fault handling on `server` (call before it listens). `methods` are the names its
 * requests go by in {@link EmulatorFaults.next} (the fault targets): `inject` refuses a fault
 * aimed at another one with `UnknownFaultError`.
 */
export function serveFaults(server: Server, methods: readonly string[]): EmulatorFaults {
  const queue = createFaultQueue(methods);
  let refused = 0;
  server.on("connection", (socket: Socket) => {
    if (!queue.refuse()) return;
    refused += 1;
    socket.resetAndDestroy();
  });
  return {
    inject(fault) {
      queue.inject(fault);
      // A connection already open would carry the next request past the fault.
      if (fault.kind === "reset-before-write") server.closeIdleConnections();
    },
    next(method, req, res) {
      if (queue.refusing()) res.setHeader("connection", "close");
      res.once("finish", () => queue.answered(method));
      const fault = queue.next(method);
      if (fault?.kind === "reset-after-processed" || fault?.kind === "timeout-after-processed")
        withhold(res, req.socket, fault.kind === "reset-after-processed");
      return fault;
    },
    get refusedConnections() {
      return refused;
    },
  };
}

/**
 * Turn `res`'s answer into nothing: when the emulator answers, the socket is reset (`drop`)
 * or left open and silent (the client's timeout ends it).
 */
function withhold(res: ServerResponse, socket: Socket, drop: boolean): void {
  const swallow = (): ServerResponse => {
    if (drop && !socket.destroyed) socket.resetAndDestroy();
    return res;
  };
  res.writeHead = swallow as unknown as ServerResponse["writeHead"];
  res.write = (() => {
    swallow();
    return true;
  }) as unknown as ServerResponse["write"];
  res.end = swallow as unknown as ServerResponse["end"];
}
