/**
 * The Chat app's access token: a JWT signed with the service account's key, exchanged at the
 * key's `token_uri` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`), kept by
 * core's token cache until shortly before it expires and fetched again once when the API
 * answers 401. Neither the key nor a token ever appears in an error.
 */
import { type Clock, cachedTokens, oauthToken, type TokenSource } from "@outbox/core";
import type { Dispatcher } from "undici";
import { RESOURCE_EXHAUSTED_WAIT_MS } from "./errors.js";
import { signAssertion } from "./jwt.js";
import type { ServiceAccount } from "./service-account.js";

/** The grant type of a signed JWT exchanged for a token. */
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** What the token source needs. */
export interface ServiceAccountTokenOptions {
  account: ServiceAccount;
  scope: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  clock: Pick<Clock, "now">;
}

/** A token source over the service account's JWT grant. */
export function serviceAccountTokens(options: ServiceAccountTokenOptions): TokenSource {
  const { account } = options;
  const url = new URL(account.tokenUri);
  // A signed assertion is worth a token for its hour: kept out of messages like the key.
  const secrets = [account.pem];
  const tokens: TokenSource = cachedTokens(
    (signal) => {
      // Google checks iat and exp against its own time: the wall clock, never an injected one.
      const assertion = signAssertion(account, options.scope, Date.now());
      secrets.push(assertion);
      return oauthToken(options.dispatcher, {
        url,
        form: new URLSearchParams({ grant_type: JWT_BEARER, assertion }),
        timeoutMs: options.timeoutMs,
        ...(signal === undefined ? {} : { signal }),
        label: "Google Chat token",
        advice: "check the service account key (a deleted or rotated key is refused) and the clock",
        rateLimitWaitMs: RESOURCE_EXHAUSTED_WAIT_MS,
        secrets: tokens.secrets(),
      });
    },
    options.clock,
    secrets,
  );
  return tokens;
}
