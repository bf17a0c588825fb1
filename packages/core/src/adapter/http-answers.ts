/**
 * Pieces every adapter with its own thin HTTP client needs (Teams, Google Chat): one request
 * read whole as text and a JSON object out of an answer's body (a `Retry-After` and a
 * network failure are read by errors/http-failure.ts).
 */
import type { Dispatcher } from "undici";
import type { HeaderValues } from "../errors/http-failure.js";
import { sendRequest } from "../media/remote/undici.js";

/** The body as a JSON object, or undefined (not JSON, or not an object). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** One request of an adapter's own client: where, what, and how long it may take. */
export interface TextRequest {
  /** `https://host:port`. */
  origin: string;
  /** Path and query. */
  path: string;
  /** HTTP method. */
  method: Dispatcher.HttpMethod;
  /** Request headers. */
  headers: Record<string, string>;
  /** Body text, if any. */
  body?: string;
  /** Milliseconds for the headers, and again for the body. */
  timeoutMs: number;
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** An answer read whole as text. */
export interface TextAnswer {
  /** HTTP status. */
  status: number;
  /** Its headers. */
  headers: HeaderValues;
  /** Its body. */
  text: string;
}

/** Send `request` through `dispatcher` and read the answer as text; a failure of the request itself is thrown as undici's. */
export async function requestText(dispatcher: Dispatcher, request: TextRequest): Promise<TextAnswer> {
  const { timeoutMs, signal, body, ...rest } = request;
  const response = await sendRequest(
    {
      ...rest,
      ...(body === undefined ? {} : { body }),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    },
    dispatcher,
  );
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** POST `form` to `url` (an OAuth token endpoint), the answer read as text. */
export function postForm(
  dispatcher: Dispatcher,
  url: URL,
  form: URLSearchParams,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<TextAnswer> {
  return requestText(dispatcher, {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    timeoutMs,
    ...(signal === undefined ? {} : { signal }),
  });
}

/** A call of a JSON API with a Bearer token (`body` already JSON, or none), the answer read as text. */
export function bearerJson(
  dispatcher: Dispatcher,
  call: { origin: string; path: string; method: Dispatcher.HttpMethod; token: string; body?: string },
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<TextAnswer> {
  const { token, body, ...where } = call;
  return requestText(dispatcher, {
    ...where,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
    },
    ...(body === undefined ? {} : { body }),
    timeoutMs,
    ...(signal === undefined ? {} : { signal }),
  });
}
