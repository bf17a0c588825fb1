/**
 * The bot's access token from the Microsoft identity platform (OAuth 2.0 client credentials,
 * scope `https://api.botframework.com/.default`), kept by core's token cache: fetched when
 * first needed, kept until shortly before it expires, fetched again once when the connector
 * answers 401 to it. The secret and the token never appear in an error.
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
    async (signal) => {
      const url = new URL(options.tokenUrl);
      const form = new URLSearchParams({
        grant_type: "client_credentials",
        client_id: options.clientId,
        client_secret: options.clientSecret,
        scope: options.scope,
      });
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
    [options.clientSecret],
  );
  return tokens;
}
