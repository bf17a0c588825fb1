/**
 * Configuration of the Google Chat adapter.
 */
import type {
  Clock,
  DeliveryStore,
  MediaPolicy,
  PacingOptions,
  RateLimit,
  RetryPolicy,
  TokenProvider,
} from "@outbox/core";
import type { Dispatcher } from "undici";

/** The fields of a service account's JSON key the adapter reads (Google Cloud console, "Keys" → "Add key" → JSON). */
export interface ServiceAccountKey {
  /** The service account's address, the JWT's issuer. */
  client_email: string;
  /** Its PEM private key. Never logged or quoted. */
  private_key: string;
  /** The key's id, put in the JWT header (`kid`) so Google finds the key at once. */
  private_key_id?: string;
  /** Token endpoint. Default `https://oauth2.googleapis.com/token` (what Google writes into every key). */
  token_uri?: string;
  /** Other fields of the key file (`type`, `project_id`, …) are accepted and ignored. */
  [field: string]: unknown;
}

/** Options of {@link createGoogleChatAdapter}: the Chat app's identity, the API, delivery settings. */
export interface GoogleChatAdapterConfig {
  /**
   * The Chat app's service account key: the downloaded JSON file's content, as an object or
   * as its text. Its `token_uri` is where tokens are asked for (the emulator puts its own).
   */
  credentials?: ServiceAccountKey | string;
  /**
   * Your own token source instead of `credentials` (google-auth-library's
   * `auth.getAccessToken()`, workload identity): called for a token with the `chat.bot`
   * scope, and with `refresh: true` once after the API answered 401 to the one it gave.
   */
  getToken?: TokenProvider;
  /** Root of the Chat API. Default `https://chat.googleapis.com`. */
  apiUrl?: string;
  /** OAuth scope asked for. Default `https://www.googleapis.com/auth/chat.bot` (a Chat app's own authority). */
  scope?: string;
  /**
   * When the thread in `target.thread` does not exist: `false` (default) fails the send with
   * a missing thread (`REPLY_MESSAGE_OR_FAIL`); `true` starts a new thread instead
   * (`REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD`), which also starts a thread for a new thread key.
   */
  threadFallback?: boolean;
  /**
   * undici dispatcher for every call (a `ProxyAgent`, a pool with your timeouts). Default:
   * the adapter's own keep-alive Agent, closed by `close()`; yours is never closed.
   */
  dispatcher?: Dispatcher;
  /** Milliseconds a call may take (headers and body). Default 60 000. */
  timeoutMs?: number;
  /** The Chat API's quotas for the pacer, when they differ from Google's documented ones. */
  rateLimits?: RateLimit[];
  /**
   * Policy for loading media and its `host`: where images and files are put so Google Chat
   * can fetch them by a public https URL (a Chat app cannot upload attachments with app
   * authentication): core's `createSelfHostedMedia` or `@outbox/media-s3`. Without one,
   * media fail in the receipt, naming `media.host`.
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
