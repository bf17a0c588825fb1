/**
 * The `WebClient` the adapter sends through: built from a token, or a sibling of a given
 * client or Bolt app (same token and API URL), always with the hidden retries off, so the
 * engine's bounded retries, pacing and receipts are the truth, and with every line it logs
 * redacted.
 */
import { ConfigError, RateLimitedError } from "@outbox/core";
import { WebClient, type WebClientOptions } from "@slack/web-api";
import type { SlackAdapterConfig } from "../types.js";
import { redactingLogger } from "./redacting-logger.js";

/** The fetch function a `WebClient` calls. */
export type SlackFetch = NonNullable<WebClientOptions["fetch"]>;

/** What the transport needs: the client, and the token and fetch for the byte upload. */
export interface SlackClient {
  /** The Web API client (retries off, 429s rejected). */
  web: WebClient;
  /** The bot token, sent with the byte upload as the Web API client does. */
  token: string;
  /** The fetch for the byte upload (the one given in `clientOptions`, else the global one). */
  upload: typeof globalThis.fetch;
  /** Milliseconds before a request is given up (the `WebClient`'s `timeout`), the byte upload's too. */
  timeoutMs: number;
}

/** Build the sending client. Throws a `ConfigError` when no token can be found. */
export function createSlackClient(config: SlackAdapterConfig): SlackClient {
  const given =
    config.client === undefined
      ? undefined
      : "client" in config.client
        ? config.client.client
        : config.client;
  const token = config.token ?? given?.token;
  if (typeof token !== "string" || token.trim() === "")
    throw new ConfigError("createSlackAdapter", "is missing and the given `client` holds none", {
      field: "token",
      fix: "pass `token` (the app's Bot User OAuth Token, xoxb-…, e.g. process.env.OUTBOX_SLACK_TOKEN) or `client` (a WebClient or Bolt App that holds one)",
    });
  const options = config.clientOptions ?? {};
  const fetch = preciseRateLimits(options.fetch ?? (globalThis.fetch as unknown as SlackFetch));
  const timeoutMs = options.timeout ?? 60_000;
  const web = new WebClient(token, {
    timeout: timeoutMs,
    ...options,
    logger: redactingLogger([token], options.logger),
    slackApiUrl: config.slackApiUrl ?? given?.slackApiUrl ?? "https://slack.com/api/",
    fetch,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const upload = (options.fetch as unknown as typeof globalThis.fetch | undefined) ?? globalThis.fetch;
  return { web, token, upload, timeoutMs };
}

/**
 * A fetch that turns a 429 with `Retry-After` into core's `RateLimitedError` at once, keeping
 * the header's full precision (the Web API client would round it down to whole seconds).
 */
function preciseRateLimits(fetch: SlackFetch): SlackFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status !== 429) return response;
    const header = response.headers.get("retry-after");
    const seconds = header === null ? Number.NaN : Number(header);
    if (!Number.isFinite(seconds) || seconds < 0) return response;
    const method = new URL(url).pathname.split("/").pop() ?? "request";
    throw new RateLimitedError(
      `Slack ${method}: ratelimited (Retry-After ${header} s)`,
      Math.round(seconds * 1000),
    );
  };
}
