/**
 * Keep-alive sockets that never go stale under a request. A server closes a connection it
 * has seen idle for a while, and a request written as that close crosses it is reset: the
 * client cannot tell whether the server read it, so such a reset is ambiguous and never
 * resent (docs/delivery.md, "Stale keep-alive sockets"). The adapter's own agent prevents
 * the race instead: it closes a socket idle for `idleMs` (its timer), well before Telegram
 * does, and before reusing a free socket it checks how long that socket has been idle on the
 * adapter's clock, so a late timer (a busy event loop, a suspended machine) still never
 * hands out a socket idle past `idleMs`. A socket error of the `connect` system call (the
 * request was never written) gets core's `NEVER_CONNECTED` code, since grammY's fetch keeps
 * an error's code but not its system call: such a failure is certain, and retried.
 */
import { type ClientRequest, Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";
import { NEVER_CONNECTED } from "@outbox/core";

type AddRequest = (req: ClientRequest, options: unknown) => void;

/**
 * The agent for `apiRoot` (http or https by its scheme), keeping connections alive and
 * closing each one once idle for `idleMs` by `now` (milliseconds).
 */
export function createKeepAliveAgent(apiRoot: string, idleMs: number, now: () => number): HttpAgent {
  const options = { keepAlive: true, timeout: idleMs };
  const agent = apiRoot.startsWith("http:") ? new HttpAgent(options) : new HttpsAgent(options);
  const idleSince = new WeakMap<Socket, number>();
  agent.on("free", (socket: Socket) => idleSince.set(socket, now()));
  const add = (agent as unknown as { addRequest: AddRequest }).addRequest.bind(agent);
  (agent as unknown as { addRequest: AddRequest }).addRequest = (req, requestOptions) => {
    dropIdle(agent, idleSince, idleMs, now());
    add(req, requestOptions);
    // Registered before the fetch library's own listener, so the code is set when it reads it.
    req.once("error", markNeverConnected);
  };
  return agent;
}

/** Give a failure of the `connect` system call core's `NEVER_CONNECTED` code. */
function markNeverConnected(error: NodeJS.ErrnoException): void {
  if (error.syscall === "connect") error.code = NEVER_CONNECTED;
}

/**
 * Close every free socket idle for `idleMs` or more, so the request at hand opens a fresh one.
 * It runs before every request, so it allocates nothing: the pools are edited in place.
 */
function dropIdle(agent: HttpAgent, idleSince: WeakMap<Socket, number>, idleMs: number, at: number): void {
  const pools = agent.freeSockets as Record<string, Socket[] | undefined>;
  for (const name in pools) {
    const free = pools[name];
    if (free === undefined) continue;
    for (let i = free.length - 1; i >= 0; i--) {
      const socket = free[i] as Socket;
      if (at - (idleSince.get(socket) ?? at) < idleMs) continue;
      socket.destroy();
      free.splice(i, 1);
    }
    if (free.length === 0) delete pools[name];
  }
}
