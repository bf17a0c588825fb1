/**
 * Pieces every adapter with its own thin HTTP client needs (Teams, Google Chat): one request
 * read whole as text, a JSON object out of an answer's body, an OAuth 2.0 token, and a Bearer
 * call that asks for a new token after a 401 (a `Retry-After` and a network failure are read
 * by errors/http-failure.ts).
 */
import type { Dispatcher } from "undici";
import { invisibleFailure } from "../engine/retry.js";
import { AuthError, type OutboxError, RateLimitedError, TransportError } from "../errors/errors.js";
import { type HeaderValues, networkFailure } from "../errors/http-failure.js";
import { redactedExcerpt } from "../errors/redact.js";
import { sendRequest } from "../media/remote/undici.js";
import type { IssuedToken, TokenSource } from "./token-cache.js";

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
  // One object literal of a fixed shape (undici reads an absent body or signal as null): a
  // short call's every copy and spread of the options counted.
  const response = await sendRequest(
    {
      origin: request.origin,
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body ?? null,
      headersTimeout: request.timeoutMs,
      bodyTimeout: request.timeoutMs,
      signal: request.signal ?? null,
    },
    dispatcher,
  );
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** Where and how an OAuth 2.0 token request goes, and how its failures read. */
export interface TokenRequest {
  /** The token endpoint. */
  url: URL;
  /** The grant's form fields (RFC 6749 §4.4, or RFC 7523's `assertion`). */
  form: URLSearchParams;
  /** Milliseconds for the headers, and again for the body. */
  timeoutMs: number;
  /** Cancels the request. */
  signal?: AbortSignal;
  /** What a failure is named after (`Teams token`). */
  label: string;
  /** What to check when the endpoint refuses the grant, added to the error's message. */
  advice: string;
  /** The wait of a 429 from the endpoint, in milliseconds. */
  rateLimitWaitMs: number;
  /** The grant's secrets, never quoted from an answer. */
  secrets: readonly string[];
}

/**
 * POST a grant to an OAuth 2.0 token endpoint and read its token (RFC 6749 §5.1:
 * `access_token`, `expires_in` in seconds). The request posts nothing a person sees, so a
 * network failure is never ambiguous: whatever happened, it can be asked again.
 */
export async function oauthToken(dispatcher: Dispatcher, request: TokenRequest): Promise<IssuedToken> {
  const { url, form, timeoutMs, signal, label } = request;
  let answer: TextAnswer;
  try {
    answer = await requestText(dispatcher, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      timeoutMs,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    throw invisibleFailure(networkFailure(label, error));
  }
  const body = answer.status === 200 ? jsonObject(answer.text) : undefined;
  const token = body?.access_token;
  if (typeof token !== "string" || token === "") throw tokenRefusal(request, answer);
  return { token, lifeMs: Number(body?.expires_in) * 1000 };
}

/**
 * An answer of a token endpoint that carries no token (a refusal, or a proxy's page): the
 * endpoint answers `{ error, error_description }` (RFC 6749 §5.2), of which the first line of
 * the description is quoted. A 429 waits `rateLimitWaitMs` for every target, a 5xx may be
 * asked again, anything else refused the credentials.
 */
function tokenRefusal(request: TokenRequest, answer: TextAnswer): OutboxError {
  const { status, text } = answer;
  const body = jsonObject(text);
  const code = typeof body?.error === "string" ? body.error : undefined;
  const description =
    typeof body?.error_description === "string" ? body.error_description.split(/\r?\n/)[0] : undefined;
  const said = redactedExcerpt(description ?? text, request.secrets) || `HTTP ${status}`;
  const message = `${request.label}: HTTP ${status}${code ? ` ${code}` : ""} (${said}); ${request.advice}`;
  if (status === 429) return new RateLimitedError(message, request.rateLimitWaitMs, { scope: "global" });
  if (status >= 500) return new TransportError(message, { ambiguous: false });
  return new AuthError(message);
}

/** A JSON API a thin client calls with a Bearer token. */
export interface BearerApi {
  /** Where the calls go. */
  dispatcher: Dispatcher;
  /** `https://host:port`. */
  origin: string;
  /** The tokens; a new one is asked for once after a 401. */
  tokens: TokenSource;
  /** Milliseconds for the headers, and again for the body. */
  timeoutMs: number;
  /** The platform as a network failure names the call (`Teams`: `Teams sendToConversation: …`). */
  platform: string;
}

/** One call of a {@link BearerApi}. */
export interface BearerCall {
  /** The call's name (`sendToConversation`), for a network failure. */
  name: string;
  /** HTTP method. */
  method: Dispatcher.HttpMethod;
  /** Path and query. */
  path: string;
  /** The body, already JSON; none when absent. */
  body?: string;
}

/**
 * Call `api` with a Bearer token from its source, and once more with a new token when the
 * answer is 401 (the request was refused, so nothing happened); the answer read as text
 * whatever its status. A failure of the request itself is `networkFailure("<platform> <name>")`.
 */
export async function bearerCall(
  api: BearerApi,
  call: BearerCall,
  signal?: AbortSignal,
): Promise<TextAnswer> {
  const token = await api.tokens.get(signal);
  const answer = await bearerRequest(api, call, token, signal);
  return answer.status === 401
    ? bearerRequest(api, call, await api.tokens.get(signal, token), signal)
    : answer;
}

/** One request of {@link bearerCall} with `token`. */
async function bearerRequest(
  api: BearerApi,
  call: BearerCall,
  token: string,
  signal: AbortSignal | undefined,
): Promise<TextAnswer> {
  const { body } = call;
  const request: TextRequest = {
    origin: api.origin,
    path: call.path,
    method: call.method,
    headers:
      body === undefined
        ? { authorization: `Bearer ${token}` }
        : { authorization: `Bearer ${token}`, "content-type": "application/json; charset=utf-8" },
    timeoutMs: api.timeoutMs,
  };
  if (body !== undefined) request.body = body;
  if (signal !== undefined) request.signal = signal;
  try {
    return await requestText(api.dispatcher, request);
  } catch (error) {
    throw networkFailure(`${api.platform} ${call.name}`, error);
  }
}
