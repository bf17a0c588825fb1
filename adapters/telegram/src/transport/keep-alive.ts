/**
 * Keep-alive sockets that never go stale under a request. The adapter's own agent closes a
 * socket idle for `idleMs`, before the server would; and when a request sent on a REUSED
 * socket fails with a reset before any byte of the answer arrived, the server closed the
 * idle socket as the request crossed it. Node documents that case (`request.reusedSocket`)
 * as the one to retry: the agent gives the socket error the code {@link STALE_SOCKET}
 * (grammY's fetch keeps an error's code), and the transport reports it as not ambiguous.
 */
import { type ClientRequest, Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";

/** Error code of a reset on a reused keep-alive socket before any answer byte. */
export const STALE_SOCKET = "OUTBOX_STALE_KEEP_ALIVE_SOCKET";

/** Socket errors of a connection the server has closed. */
const RESETS = new Set(["ECONNRESET", "EPIPE"]);

type AddRequest = (req: ClientRequest, options: unknown) => void;

/**
 * The agent for `apiRoot` (http or https by its scheme), closing sockets idle for `idleMs`
 * and marking stale-socket resets with {@link STALE_SOCKET}.
 */
export function createKeepAliveAgent(apiRoot: string, idleMs: number): HttpAgent {
  const options = { keepAlive: true, timeout: idleMs };
  const agent = apiRoot.startsWith("http:") ? new HttpAgent(options) : new HttpsAgent(options);
  const add = (agent as unknown as { addRequest: AddRequest }).addRequest.bind(agent);
  (agent as unknown as { addRequest: AddRequest }).addRequest = (req, requestOptions) => {
    add(req, requestOptions);
    watch(req);
  };
  return agent;
}

/**
 * Mark `req`'s error when it reused a socket and failed before any answer byte (the
 * socket's `bytesRead` did not move since the request got it: no listener on its data).
 */
function watch(req: ClientRequest): void {
  let socket: Socket | undefined;
  let readBefore = 0;
  req.once("socket", (s) => {
    socket = s;
    readBefore = s.bytesRead;
  });
  // Registered before the fetch library's own listener, so the code is set when it rejects.
  req.once("error", (error: NodeJS.ErrnoException) => {
    const answered = socket !== undefined && socket.bytesRead > readBefore;
    if (req.reusedSocket && !answered && error.code !== undefined && RESETS.has(error.code))
      error.code = STALE_SOCKET;
  });
}

/** Whether an error (or one it wraps: grammY's `HttpError.error`, `cause`) is a stale-socket reset. */
export function isStaleSocket(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 4; depth++) {
    if ((e as { code?: unknown }).code === STALE_SOCKET) return true;
    e = (e as { error?: unknown }).error ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
