/**
 * Keep-alive idle close, as a server (or its proxy) does it: a connection idle for
 * `idleTimeoutMs` is closed. A request that arrives on a connection already idle that long
 * by the emulator's clock is the race where the server's close and the client's request
 * cross: the connection is reset before any byte is answered, and nothing is processed.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** Counts of the connections the emulator saw. */
export interface ConnectionCounts {
  /** Connections accepted. */
  opened: number;
  /** Connections closed (by either side). */
  closed: number;
  /** Requests reset because they arrived on a connection idle past the timeout. */
  staleResets: number;
}

/** Watch the server's connections; `stale(req, res)` resets a request that crossed an idle close. */
export function watchIdleSockets(server: Server, idleTimeoutMs: number | undefined, now: () => number) {
  const counts: ConnectionCounts = { opened: 0, closed: 0, staleResets: 0 };
  const lastAnswer = new WeakMap<Socket, number>();
  server.on("connection", (socket: Socket) => {
    counts.opened += 1;
    socket.once("close", () => {
      counts.closed += 1;
    });
  });
  if (idleTimeoutMs !== undefined) server.keepAliveTimeout = idleTimeoutMs;
  return {
    counts,
    /** Reset `req` when its connection was idle past the timeout; track when it is answered. */
    stale(req: IncomingMessage, res: ServerResponse): boolean {
      if (idleTimeoutMs === undefined) return false;
      const socket = req.socket;
      const last = lastAnswer.get(socket);
      if (last !== undefined && now() - last >= idleTimeoutMs) {
        counts.staleResets += 1;
        socket.resetAndDestroy();
        return true;
      }
      res.once("finish", () => lastAnswer.set(socket, now()));
      return false;
    },
  };
}
