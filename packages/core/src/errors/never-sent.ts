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
