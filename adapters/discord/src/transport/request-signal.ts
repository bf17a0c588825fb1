/**
 * One request's own abort signal, following the operation's: `@discordjs/rest` (and undici
 * under it) add an abort listener to the signal of every request and leave it there, so a
 * live preview's one signal, handed to every edit, gathered one listener per edit
 * (`MaxListenersExceededWarning` after ten). The operation's signal holds one listener
 * while a request is in flight, and none after.
 */

/** Runs `request` with a signal aborted when `signal` is; the link is removed when it settles. */
export async function withRequestSignal<T>(
  signal: AbortSignal | undefined,
  request: (options: { signal?: AbortSignal }) => Promise<T>,
): Promise<T> {
  if (signal === undefined) return request({});
  const own = new AbortController();
  const abort = (): void => own.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
  try {
    return await request({ signal: own.signal });
  } finally {
    signal.removeEventListener("abort", abort);
  }
}
