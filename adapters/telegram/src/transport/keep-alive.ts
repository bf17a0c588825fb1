/**
 * Keep-alive sockets that never go stale under a request. A server closes a connection it
 * has seen idle for a while, and a request written as that close crosses it is reset: the
 * client cannot tell whether the server read it, so such a reset is ambiguous and never
 * resent (docs/delivery.md, "Stale keep-alive sockets"). The adapter's own agent prevents
 * the race instead: it closes a socket idle for `idleMs` (its timer), well before Telegram
 * does, and before reusing a free socket it checks how long that socket has been idle on the
 * adapter's clock, so a late timer (a busy event loop, a suspended machine) still never
 * hands out a socket idle past `idleMs`.
 */
import { type ClientRequest, Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";

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
  };
  return agent;
}

/** Close every free socket idle for `idleMs` or more, so the request at hand opens a fresh one. */
function dropIdle(agent: HttpAgent, idleSince: WeakMap<Socket, number>, idleMs: number, at: number): void {
  const pools = agent.freeSockets as Record<string, Socket[] | undefined>;
  for (const [name, free = []] of Object.entries(pools)) {
    const kept = free.filter((socket) => {
      const stale = at - (idleSince.get(socket) ?? at) >= idleMs;
      if (stale) socket.destroy();
      return !stale;
    });
    if (kept.length === 0) delete pools[name];
    else pools[name] = kept;
  }
}
