/**
 * Configuration of the Discord adapter.
 */
import type { RequestData } from "@discordjs/rest";
import type { Clock, DeliveryStore, MediaPolicy, PacingOptions, RetryPolicy } from "@outbox/core";

/**
 * The part of an `@discordjs/rest` `REST` the adapter uses (duck-typed, so the `REST` of a
 * discord.js `Client` from another copy of the library works too).
 */
export interface DiscordRestLike {
  /** `POST` a route (`/channels/{id}/messages`, `/users/@me/channels`). */
  post(fullRoute: `/${string}`, options?: RequestData): Promise<unknown>;
  /** `PATCH` a route (`/channels/{id}/messages/{id}`: edit a message). */
  patch(fullRoute: `/${string}`, options?: RequestData): Promise<unknown>;
  /** `DELETE` a route (`/channels/{id}/messages/{id}`). */
  delete(fullRoute: `/${string}`, options?: RequestData): Promise<unknown>;
  /** The client's options; the adapter reads `rejectOnRateLimit` (and never changes it). */
  readonly options: { rejectOnRateLimit?: unknown };
  /** Its events; the adapter listens to `response` for the `X-RateLimit-*` headers of each call. */
  on?(event: "response", listener: (request: never, response: never) => void): unknown;
}

/** Who may be pinged by a message: Discord's `allowed_mentions` object. */
export interface DiscordAllowedMentions {
  /** Mention kinds parsed from the content (`users`, `roles`, `everyone`). Default `[]`: nobody. */
  parse?: Array<"users" | "roles" | "everyone">;
  /** User ids that may be pinged. */
  users?: string[];
  /** Role ids that may be pinged. */
  roles?: string[];
  /** Ping the author of the message replied to. */
  replied_user?: boolean;
}

/** Options of {@link createDiscordAdapter}: one credential (token, `rest` or `client`), plus delivery settings. */
export interface DiscordAdapterConfig {
  /** Bot token (Developer Portal → your application → Bot → Reset Token). The adapter builds its own `REST`. */
  token?: string;
  /**
   * A ready `@discordjs/rest` `REST` with its token set and a `rejectOnRateLimit` policy
   * (`() => true` hands every rate limit to the engine, which bounds the wait). The adapter
   * sends through it as it is and never changes it; one without a policy is refused with a
   * `ConfigError` (it would wait out a permanent 429 without end).
   */
  rest?: DiscordRestLike;
  /** A discord.js `Client` (no gateway login needed): the adapter sends through `client.rest`, as with `rest`. */
  client?: {
    /** The client's REST. */
    rest: DiscordRestLike;
    /** The client's token, when it logged in; redacted from errors like `token`. */
    token?: string | null;
  };
  /** API root without the version (another server, or the emulator). Only with `token`. Default `https://discord.com/api`. */
  api?: string;
  /** Milliseconds before a request is given up (an ambiguous `TransportError`). Only with `token`. Default 60 000. */
  timeoutMs?: number;
  /** Who a message may ping. Default `{ parse: [] }`: a model's `@everyone` pings nobody. */
  allowedMentions?: DiscordAllowedMentions;
  /** Per-file upload limit in bytes (a boosted server allows more). Default 10 MiB. */
  maxUploadBytes?: number;
  /** Policy for loading media (local roots, allowed hosts, …); the byte limit is lowered to Discord's. */
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
