/**
 * A GET that follows redirects by hand, checking every hop from scratch and connecting
 * only to the address that was checked.
 */
import { isIP } from "node:net";
import type { Dispatcher } from "undici";
import { MediaError } from "../../errors/errors.js";
import type { ResolvedPolicy } from "../policy.js";
import { describeUrl } from "./describe-url.js";
import { type PinnedTarget, resolveTarget } from "./resolve-target.js";
import { sendRequest } from "./undici.js";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A final (non-redirect) response. */
export interface GuardedResponse {
  /** HTTP status. */
  statusCode: number;
  /** Response headers. */
  headers: Dispatcher.ResponseData["headers"];
  /** The body stream (undici's readable). */
  body: Dispatcher.ResponseData["body"];
  /** The URL that answered, after redirects. */
  url: URL;
}

/**
 * The request goes to the checked IP literal, so nothing resolves the name again at
 * connect time (no DNS-rebinding window), with or without a caller's dispatcher. The
 * `host` header carries the name, and undici takes the TLS server name (SNI and the
 * certificate check) from it.
 */
function pinnedRequest(
  target: PinnedTarget,
  signal: AbortSignal,
  extra: Record<string, string>,
): Dispatcher.RequestOptions {
  const address = isIP(target.address) === 6 ? `[${target.address}]` : target.address;
  return {
    origin: `https://${address}:${target.url.port === "" ? 443 : target.url.port}`,
    path: `${target.url.pathname}${target.url.search}`,
    method: "GET",
    headers: {
      host: target.url.host,
      accept: "*/*",
      "accept-encoding": "identity",
      "user-agent": "outbox-media",
      ...extra,
    },
    signal,
  };
}

/**
 * Settles with `request`, or rejects with the signal's reason the moment it aborts. undici
 * honours an abort only once a connection exists: during connect and the TLS handshake it
 * waits for its own connect timeout (10 s). A response that arrives after the abort is
 * dropped.
 */
function untilAborted(
  request: Promise<Dispatcher.ResponseData>,
  signal: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    request.then(
      (response) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) discardBody(response.body);
        else resolve(response);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Drops a body that will not be read (undici reports the abort as an error event: ignored). */
export function discardBody(body: GuardedResponse["body"]): void {
  body.on("error", () => {});
  body.destroy();
}

/** A header's (first) value. */
export function headerValue(headers: GuardedResponse["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Fetches `ref` under the policy: each hop passes {@link resolveTarget}, at most
 * `maxRedirects` redirects, no loops. No credentials or cookies are ever sent. Returns the
 * first non-redirect response; the caller reads or destroys its body.
 */
export async function fetchGuarded(
  ref: string,
  policy: ResolvedPolicy,
  signal: AbortSignal,
  extraHeaders: Record<string, string> = {},
): Promise<GuardedResponse> {
  const visited = new Set<string>();
  let current = ref;
  for (let hop = 0; ; hop += 1) {
    const target = await resolveTarget(ref, current, policy, signal);
    signal.throwIfAborted();
    visited.add(target.url.href);
    const response = await untilAborted(
      sendRequest(pinnedRequest(target, signal, extraHeaders), policy.dispatcher),
      signal,
    );
    const location = headerValue(response.headers, "location");
    if (!REDIRECTS.has(response.statusCode) || location === undefined) {
      return {
        statusCode: response.statusCode,
        headers: response.headers,
        body: response.body,
        url: target.url,
      };
    }
    discardBody(response.body);
    const next = new URL(location, target.url).href;
    const shown = describeUrl(ref);
    if (hop >= policy.maxRedirects) {
      throw new MediaError(
        "fetch-failed",
        `Media ${shown} redirected more than ${policy.maxRedirects} times; link the final URL instead.`,
        { ref },
      );
    }
    if (visited.has(next)) {
      throw new MediaError(
        "fetch-failed",
        `Media ${shown} redirects in a loop (back to ${describeUrl(next)}).`,
        {
          ref,
        },
      );
    }
    current = next;
  }
}
