/**
 * The Chat app's access token: a JWT signed with the service account's key, exchanged at the
 * key's `token_uri` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`), kept by
 * core's token cache until shortly before it expires and fetched again once when the API
 * answers 401. Neither the key nor a token ever appears in an error.
 */
import {
  type Clock,
  cachedTokens,
  invisibleFailure,
  jsonObject,
  postForm,
  type TextAnswer,
  type TokenSource,
} from "@outbox/core";
import type { Dispatcher } from "undici";
import { fromNetwork, fromTokenEndpoint } from "./errors.js";
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
    async (signal) => {
      // Google checks iat and exp against its own time: the wall clock, never an injected one.
      const assertion = signAssertion(account, options.scope, Date.now());
      secrets.push(assertion);
      const form = new URLSearchParams({ grant_type: JWT_BEARER, assertion });
      let answer: TextAnswer;
      try {
        answer = await postForm(options.dispatcher, url, form, options.timeoutMs, signal);
      } catch (error) {
        // The token request posts nothing the person sees: whatever happened, ask again.
        throw invisibleFailure(fromNetwork(error, "token"));
      }
      const { status, text } = answer;
      const body = status === 200 ? jsonObject(text) : undefined;
      const token = body?.access_token;
      if (typeof token !== "string" || token === "") throw fromTokenEndpoint(status, text, tokens.secrets());
      return { token, lifeMs: Number(body?.expires_in) * 1000 };
    },
    options.clock,
    secrets,
  );
  return tokens;
}
