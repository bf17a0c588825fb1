/**
 * Configuration of the Teams adapter.
 */
import type { Clock, DeliveryStore, MediaPolicy, PacingOptions, RateLimit, RetryPolicy } from "@outbox/core";
import type { Dispatcher } from "undici";

/** Answers a Bot Framework access token (the integrator's own, e.g. from a managed identity). */
export type TeamsTokenProvider = (options: { signal?: AbortSignal; refresh: boolean }) => Promise<string>;

/** Options of {@link createTeamsAdapter}: the bot's identity, the connector, and delivery settings. */
export interface TeamsAdapterConfig {
  /** The bot's Microsoft App ID (the Azure Bot resource's app registration, "Application (client) ID"). */
  clientId?: string;
  /** A client secret of that app registration ("Certificates & secrets"). Never logged or quoted. */
  clientSecret?: string;
  /** The Directory (tenant) ID of a single-tenant bot. Default `botframework.com` (a multi-tenant bot). */
  tenantId?: string;
  /**
   * The connector the conversation lives on: the `serviceUrl` of an activity the bot received
   * (`https://smba.trafficmanager.net/teams/`, or a regional one such as `…/amer/`).
   */
  serviceUrl: string;
  /**
   * Token endpoint (the emulator's, or a sovereign cloud's). Default
   * `https://login.microsoftonline.com/{tenantId}/oauth2/v2.0/token`.
   */
  tokenUrl?: string;
  /** Scope asked for. Default `https://api.botframework.com/.default`. */
  scope?: string;
  /**
   * Your own token source instead of `clientId`/`clientSecret`: called for a token, and with
   * `refresh: true` once after the connector answered 401 to the token it gave.
   */
  getToken?: TeamsTokenProvider;
  /**
   * undici dispatcher for every call (a `ProxyAgent`, a pool with your timeouts). Default:
   * the adapter's own keep-alive Agent, closed by `close()`; yours is never closed.
   */
  dispatcher?: Dispatcher;
  /** Milliseconds a call may take (headers and body). Default 60 000. */
  timeoutMs?: number;
  /** The connector's limits for the pacer, when they differ from Microsoft's documented ones. */
  rateLimits?: RateLimit[];
  /**
   * Policy for loading media (local roots, allowed hosts, …) and its `host`: where images
   * over 1 MB, videos, audio and documents are put so that Teams fetches them by URL (a bot
   * cannot upload files in most conversations): core's `createSelfHostedMedia` or
   * `@outbox/media-s3`. Without one, such items fail in the receipt, naming `media.host`;
   * images up to 1 MB go inline.
   */
  media?: MediaPolicy;
  /** Retry bounds for 429s and failures before sending. */
  retry?: RetryPolicy;
  /** Clock for pacing, retry waits and the token's expiry. Default: the real clock. */
  clock?: Clock;
  /** Pacing below the platform's limits. Default: core's. */
  pacing?: PacingOptions;
  /** Journal for once-only delivery (`idempotencyKey`). Default: in memory. */
  store?: DeliveryStore;
}
