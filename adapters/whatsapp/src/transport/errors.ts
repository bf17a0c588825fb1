/**
 * Graph API failures → core's error classes. Graph answers an error as
 * `{ error: { message, type, code, error_subcode?, error_data: { details }, fbtrace_id } }`;
 * the Cloud API's own codes say what happened, whatever the HTTP status. Every message names
 * the Graph code and what to do about it.
 */
import {
  AuthError,
  networkFailure,
  type OutboxError,
  PlatformError,
  RateLimitedError,
  redactedExcerpt,
  retryAfterMs,
  TargetNotFoundError,
} from "@outbox/core";
import { WHATSAPP_LIMITS } from "../capabilities.js";

/** The `error` object of a Graph answer (the fields read here). */
interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  error_data?: { details?: string };
}

/** What to do about each Cloud API code the adapter meets. */
const HINTS: Record<number, string> = {
  100: "a parameter is invalid (named above); check the phone number id, the recipient and the media",
  190: "the access token is invalid or expired: create a permanent System User token (docs/adapters/whatsapp.md)",
  131030:
    "the recipient is not on the test number's allowed list: add it under WhatsApp > API Setup > To (up to 5 numbers)",
  131047:
    "more than 24 hours have passed since the person last wrote: only an approved template message can be sent until they write again",
  131053: "WhatsApp refused the media: check its type and size against the supported media types",
  131056: "too many messages to this person in a short time (pair rate limit): wait before sending more",
  130429: "the number's throughput is exceeded: send slower",
};

/**
 * Map a non-2xx (or unreadable) Graph answer onto core's errors. A body that is not Graph's
 * JSON (a proxy's page) is quoted in part, `secrets` removed from it first.
 */
export function fromResponse(
  method: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Record<string, unknown> | undefined,
  text: string,
  secrets: readonly string[] = [],
): OutboxError {
  const error = (body?.error ?? {}) as GraphError;
  const code = typeof error.code === "number" ? error.code : undefined;
  const details = [error.message, error.error_data?.details].filter((s) => s !== undefined && s !== "");
  const said = details.length > 0 ? details.join(": ") : redactedExcerpt(text, secrets) || `HTTP ${status}`;
  const hint = code === undefined ? undefined : HINTS[code];
  const message = `WhatsApp ${method}: ${code === undefined ? `HTTP ${status}` : `error ${code}`} (${said})${hint ? `; ${hint}` : ""}`;
  // Graph sends no Retry-After; proxies and the emulator's injected faults do.
  const retryAfter = retryAfterMs(headers);
  if (code === 131056)
    return new RateLimitedError(message, retryAfter ?? WHATSAPP_LIMITS.pairIntervalMs, { scope: "target" });
  if (code === 130429 || (status === 429 && code !== 131056))
    return new RateLimitedError(message, retryAfter ?? 1000, { scope: "global" });
  if (code === 190 || status === 401) return new AuthError(message);
  if (code === 131030) return new TargetNotFoundError(message, "chat");
  return new PlatformError(message, {
    method,
    status,
    description: code === undefined ? said : `${code}: ${said}`,
  });
}

/** A network failure: ambiguous unless the connection never opened. */
export function fromNetwork(error: unknown, method: string): OutboxError {
  return networkFailure(`WhatsApp ${method}`, error);
}
