/**
 * Configuration of the Slack adapter.
 */
import type { Clock, DeliveryStore, MediaPolicy, PacingOptions, RetryPolicy } from "@outbox/core";
import type { WebClient, WebClientOptions } from "@slack/web-api";

/** Anything with a Web API client, such as a Bolt `App` (its `client`); duck-typed so Bolt is not needed at run time. */
export interface SlackAppLike {
  /** The app's `WebClient`. */
  client: WebClient;
}

/** Options of {@link createSlackAdapter}: a token, a `WebClient` or a Bolt `App`, plus delivery settings. */
export interface SlackAdapterConfig {
  /** Bot token (`xoxb-…`). The adapter builds its own `WebClient` from it. Required unless `client` is given. */
  token?: string;
  /**
   * A `WebClient` or a Bolt `App` whose client holds a token. The adapter reads its public `token` and
   * `slackApiUrl` and sends through a sibling `WebClient` of its own with the hidden retries off, so the
   * client you pass is never modified (your other calls keep its retry policy). Its private settings
   * (custom `fetch`, headers, logger, team id, timeout) are not readable: pass them in `clientOptions`.
   */
  client?: WebClient | SlackAppLike;
  /** Web API base URL (the emulator's, or an enterprise proxy). Default: the given client's, else `https://slack.com/api/`. */
  slackApiUrl?: string;
  /**
   * Extra `WebClient` options (`fetch` for a proxy, `headers`, `teamId`, `logger`, `timeout` in ms, default 60 000).
   * `retryConfig` and `rejectRateLimitedCalls` are always overridden: the engine retries, paces and reports.
   */
  clientOptions?: Omit<WebClientOptions, "retryConfig" | "rejectRateLimitedCalls" | "slackApiUrl">;
  /**
   * Keep Slack's special tokens (`<@U…>` user, `<#C…>` channel, `<!here>`, `<!channel>`, `<!everyone>`,
   * `<!subteam^…>` mentions) in the text so they notify. Default `false`: they are shown as typed and ping nobody.
   */
  mentions?: boolean;
  /** Let Slack unfurl links and media in text messages (`unfurl_links`, `unfurl_media`). Default `false`. */
  unfurl?: boolean;
  /** Policy for loading media (local roots, allowed hosts, …); the byte limit is lowered to Slack's. */
  media?: MediaPolicy;
  /** Retry bounds for 429s and failures before sending. */
  retry?: RetryPolicy;
  /** Clock for pacing and retry waits. Default: the real clock. */
  clock?: Clock;
  /** Pacing below the platform's limits (margin, recovery after a 429, a shared gate). Default: core's. */
  pacing?: PacingOptions;
  /** Journal for once-only delivery (`idempotencyKey`). Default: in memory. */
  store?: DeliveryStore;
}
