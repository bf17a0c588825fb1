/** Connection failure codes that prove a request never left the machine (so resending it cannot duplicate). */
const NEVER_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
]);

/**
 * Whether a network error code (`error.code` of Node's socket and DNS errors) proves the
 * request never reached the platform. Transports use it to tell a safe-to-retry
 * `TransportError` from an ambiguous one.
 */
export function neverSent(code: unknown): boolean {
  return typeof code === "string" && NEVER_SENT_CODES.has(code);
}

/** The fields of Node's system errors (and of the client libraries' wrappers) read here. */
interface SystemErrorLike {
  code?: unknown;
  syscall?: unknown;
  /** node-fetch 2 (grammY) keeps the system call here. */
  erroredSysCall?: unknown;
  cause?: unknown;
  /** grammY's `HttpError` wraps the fetch error here. */
  error?: unknown;
  /** `@slack/web-api`'s request error wraps the fetch error here. */
  original?: unknown;
}

/**
 * Whether a failed request, or any error it wraps (`cause`, grammY's `error`, Slack's
 * `original`), proves the request was never written: a code {@link neverSent} accepts, or a
 * failure of the `connect` system call itself (a reset or refusal while the connection was
 * being opened: Node and undici write no byte of a request before its connection is open).
 * Anything later (a reset while reading the answer, a timeout) may come after the platform
 * processed the request, and is ambiguous.
 */
export function neverLeft(error: unknown): boolean {
  let e = error as SystemErrorLike | undefined;
  for (let depth = 0; typeof e === "object" && e !== null && depth < 6; depth += 1) {
    if (neverSent(e.code) || e.syscall === "connect" || e.erroredSysCall === "connect") return true;
    e = (e.cause ?? e.error ?? e.original) as SystemErrorLike | undefined;
  }
  return false;
}
