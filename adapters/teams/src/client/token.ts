/**
 * The bot's access token from the Microsoft identity platform (OAuth 2.0 client credentials,
 * scope `https://api.botframework.com/.default`): fetched when first needed, kept until five
 * minutes before it expires (a tenth of its life for a short one), fetched again once when the
 * connector answers 401 to it, and fetched once for all callers waiting at the same time.
 * The secret and the token never appear in an error.
 */
import { type Clock, invisibleFailure, OutboxError } from "@outbox/core";
import type { Dispatcher } from "undici";
import type { TeamsTokenProvider } from "../types.js";
import { fromNetwork, fromTokenEndpoint, parse } from "./errors.js";
import { requestApi } from "./undici.js";

/** Where the token comes from. */
export interface TokenSource {
  /** A valid token; a new one when `stale` is the token the connector just refused. */
  get(signal?: AbortSignal, stale?: string): Promise<string>;
  /** Values to keep out of messages: the secret and the tokens handed out so far. */
  secrets(): string[];
  /**
   * Whether `get()` would call the identity platform now (no token yet, or one due for
   * renewal). A provided source answers false: its provider keeps its own cache.
   */
  needsFetch(): boolean;
}

/** What a client-credentials source needs. */
export interface CredentialsOptions {
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
  scope: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  clock: Pick<Clock, "now">;
}

/** Margin before expiry at which a cached token is replaced. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;

/** A token source over the client-credentials grant. */
export function clientCredentials(options: CredentialsOptions): TokenSource {
  let cached: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const seen = new Set<string>();
  const secrets = () => [options.clientSecret, ...seen];

  const fetchToken = async (signal?: AbortSignal): Promise<string> => {
    const url = new URL(options.tokenUrl);
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: options.clientId,
      client_secret: options.clientSecret,
      scope: options.scope,
    });
    let status: number;
    let text: string;
    try {
      const response = await requestApi.call(options.dispatcher, {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form.toString(),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        ...(signal === undefined ? {} : { signal }),
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      // The token request posts nothing the person sees: whatever happened, ask again.
      throw invisibleFailure(fromNetwork(error, "token"));
    }
    const body = status === 200 ? parse(text) : undefined;
    const token = body?.access_token;
    if (typeof token !== "string" || token === "") throw fromTokenEndpoint(status, text, secrets());
    const lifeMs = Number(body?.expires_in) * 1000;
    const margin = Number.isFinite(lifeMs) && lifeMs > 0 ? Math.min(EXPIRY_MARGIN_MS, lifeMs / 10) : 0;
    seen.add(token);
    cached = { token, renewAt: options.clock.now() + (Number.isFinite(lifeMs) ? lifeMs : 0) - margin };
    return token;
  };

  return {
    needsFetch: () => cached === undefined || options.clock.now() >= cached.renewAt,
    async get(signal, stale) {
      if (cached !== undefined && (stale === cached.token || options.clock.now() >= cached.renewAt))
        cached = undefined;
      if (cached !== undefined) return cached.token;
      pending ??= fetchToken(signal).finally(() => {
        pending = undefined;
      });
      return pending;
    },
    secrets,
  };
}

/** A token source over the integrator's own provider. */
export function providedTokens(provider: TeamsTokenProvider): TokenSource {
  const seen = new Set<string>();
  return {
    async get(signal, stale) {
      let token: string;
      try {
        token = await provider({ ...(signal === undefined ? {} : { signal }), refresh: stale !== undefined });
      } catch (error) {
        throw error instanceof OutboxError ? error : invisibleFailure(fromNetwork(error, "token"));
      }
      seen.add(token);
      return token;
    },
    secrets: () => [...seen],
    needsFetch: () => false,
  };
}
