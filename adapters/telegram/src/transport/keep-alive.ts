/**
 * Keep-alive sockets that never go stale under a request. The adapter's own agent closes a
 * socket idle for `idleMs`, before the server would; and when a request sent on a REUSED
 * socket fails with a reset before any byte of the answer arrived, the server closed the
 * idle socket as the request crossed it. Node documents that case (`request.reusedSocket`)
 * as the one to retry: the transport reports it as not ambiguous, so the engine retries it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { type ClientRequest, Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import type { Socket } from "node:net";

/** What the last request of one transport call went through. */
interface RequestState {
  /** The request went out on a socket kept alive from an earlier request. */
  reused: boolean;
  /** It failed with this socket error code before any response byte arrived. */
  resetBeforeAnswer: string | undefined;
}

/** Socket errors of a connection the server has closed. */
const RESETS = new Set(["ECONNRESET", "EPIPE"]);

/** Tracks requests made inside {@link KeepAlive.track}. */
export interface KeepAlive {
  /** The agent to hand grammY (`baseFetchConfig.agent`). */
  readonly agent: HttpAgent;
  /** Run one transport call; its requests are watched. */
  track<T>(
    call: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; error: unknown; stale: boolean }>;
}

type AddRequest = (req: ClientRequest, options: unknown) => void;

/**
 * Build the agent for `apiRoot` (http or https by its scheme) closing sockets idle for
 * `idleMs`, and the tracker that tells a stale-socket reset from an ambiguous failure.
 */
export function createKeepAlive(apiRoot: string, idleMs: number): KeepAlive {
  const store = new AsyncLocalStorage<RequestState>();
  const options = { keepAlive: true, timeout: idleMs };
  const agent = apiRoot.startsWith("http:") ? new HttpAgent(options) : new HttpsAgent(options);
  const add = (agent as unknown as { addRequest: AddRequest }).addRequest.bind(agent);
  (agent as unknown as { addRequest: AddRequest }).addRequest = (req, requestOptions) => {
    add(req, requestOptions);
    const state = store.getStore();
    if (state !== undefined) watch(req, state);
  };
  return {
    agent,
    async track(call) {
      const state: RequestState = { reused: false, resetBeforeAnswer: undefined };
      try {
        return { ok: true, value: await store.run(state, call) };
      } catch (error) {
        return { ok: false, error, stale: state.reused && state.resetBeforeAnswer !== undefined };
      }
    },
  };
}

/** Record on `state` whether `req` reused a socket and failed before any answer byte. */
function watch(req: ClientRequest, state: RequestState): void {
  state.reused = false;
  state.resetBeforeAnswer = undefined;
  let answered = false;
  const onData = (): void => {
    answered = true;
  };
  let socket: Socket | undefined;
  req.once("socket", (s) => {
    socket = s;
    s.once("data", onData);
  });
  // Registered before the fetch library's own listener, so the state is set when it rejects.
  req.once("error", (error: NodeJS.ErrnoException) => {
    state.reused = req.reusedSocket;
    if (!answered && error.code !== undefined && RESETS.has(error.code)) state.resetBeforeAnswer = error.code;
  });
  req.once("close", () => socket?.removeListener("data", onData));
}
