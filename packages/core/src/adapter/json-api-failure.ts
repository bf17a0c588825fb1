/**
 * A failed call of a JSON API that answers an error as `{ error: { <code>, message } }`
 * (Teams' Bot Framework connector, Google's APIs) → core's error classes, for adapters with
 * their own thin client (http-answers.ts). The message names the platform, the call, the
 * status, the code and what to do; a body that is not the envelope (a proxy's page) is quoted
 * in part with the secrets removed first.
 */
import {
  AuthError,
  type OutboxError,
  PlatformError,
  RateLimitedError,
  TargetNotFoundError,
} from "../errors/errors.js";
import { type HeaderValues, retryAfterMs } from "../errors/http-failure.js";
import { redactedExcerpt } from "../errors/redact.js";
import { jsonObject } from "./http-answers.js";

/** How one platform's API answers an error, and what the adapter makes of it. */
export interface JsonApiErrors {
  /** The platform as messages name it (`Teams`, `Google Chat`). */
  platform: string;
  /** The field of the `error` object holding its string code (`code`, or google.rpc.Status' `status`). */
  codeField: string;
  /** What to do about each code, added to the message. */
  hints: Readonly<Record<string, string>>;
  /** The wait of a 429 that names none (no `Retry-After`), in milliseconds. */
  rateLimitWaitMs: number;
  /** The calls on a message already sent (edit, delete): their 404 is the message's, not the chat's. */
  messageCalls: readonly string[];
  /**
   * The platform's own reading of an answer, before the common one (401 and 403 refused,
   * 404 not found, 429 rate limited, anything else the platform's error): an error, or
   * undefined to leave it to the common reading.
   */
  refine?: (status: number, code: string | undefined, message: string) => OutboxError | undefined;
}

/** The failed call: its name (as the emulator's fault targets name it) and whether it went to a thread. */
export interface FailedJsonCall {
  /** The call. */
  method: string;
  /** The message went to a thread (a 404 is the thread's). */
  thread?: boolean;
}

/** A non-2xx answer of the call. */
export interface FailedJsonAnswer {
  /** HTTP status. */
  status: number;
  /** Its headers (`Retry-After`). */
  headers: HeaderValues;
  /** Its body. */
  text: string;
}

/** Map a non-2xx answer of `api` onto core's errors; `secrets` never reach the message. */
export function jsonApiFailure(
  api: JsonApiErrors,
  call: FailedJsonCall,
  answer: FailedJsonAnswer,
  secrets: readonly string[],
): OutboxError {
  const { status, headers, text } = answer;
  const error = (jsonObject(text)?.error ?? {}) as Record<string, unknown>;
  const field = error[api.codeField];
  const code = typeof field === "string" ? field : undefined;
  const said =
    typeof error.message === "string" && error.message !== ""
      ? redactedExcerpt(error.message, secrets)
      : redactedExcerpt(text, secrets) || `HTTP ${status}`;
  const hint = code === undefined ? undefined : api.hints[code];
  const message = `${api.platform} ${call.method}: HTTP ${status}${code ? ` ${code}` : ""} (${said})${hint ? `; ${hint}` : ""}`;
  const refined = api.refine?.(status, code, message);
  if (refined !== undefined) return refined;
  if (status === 429)
    return new RateLimitedError(message, retryAfterMs(headers) ?? api.rateLimitWaitMs, { scope: "target" });
  if (status === 401 || status === 403) return new AuthError(message);
  if (status === 404) {
    if (api.messageCalls.includes(call.method)) return new TargetNotFoundError(message, "message");
    return new TargetNotFoundError(message, call.thread ? "thread" : "chat");
  }
  return new PlatformError(message, {
    method: call.method,
    status,
    description: code ? `${code}: ${said}` : said,
  });
}
