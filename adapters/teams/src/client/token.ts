/**
 * The bot's access token from the Microsoft identity platform (OAuth 2.0 client credentials,
 * scope `https://api.botframework.com/.default`), kept by core's token cache: fetched when
 * first needed, kept until shortly before it expires, fetched again once when the connector
 * answers 401 to it. The secret and the token never appear in an error.
 */
import { type Clock, cachedTokens, oauthToken, type TokenSource } from "@outbox/core";
import type { Dispatcher } from "undici";

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

/** A token source over the client-credentials grant. */
export function clientCredentials(options: CredentialsOptions): TokenSource {
  const tokens: TokenSource = cachedTokens(
    (signal) =>
      oauthToken(options.dispatcher, {
        url: new URL(options.tokenUrl),
        form: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: options.clientId,
          client_secret: options.clientSecret,
          scope: options.scope,
        }),
        timeoutMs: options.timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        label: "Teams token",
        advice: "check clientId, clientSecret and tenantId (a single-tenant bot needs its tenant id)",
        rateLimitWaitMs: 1000,
        secrets: tokens.secrets(),
      }),
    options.clock,
    [options.clientSecret],
  );
  return tokens;
}
