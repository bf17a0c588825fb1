/**
 * Configuration of the Matrix adapter.
 */
import type { Clock, DeliveryStore, MediaPolicy, PacingOptions, RetryPolicy } from "@outbox/core";
import type { Dispatcher } from "undici";
import type { MatrixRateLimit } from "./capabilities.js";

/** Options of {@link createMatrixAdapter}: the homeserver, the bot's access token, and delivery settings. */
export interface MatrixAdapterConfig {
  /** Homeserver base URL (`https://matrix.example.org`; the client-server API's, see `/.well-known/matrix/client`). */
  homeserver: string;
  /** Access token of the bot's user (from `POST /_matrix/client/v3/login`, or Element → Settings → Help & About). */
  accessToken: string;
  /** Dispatcher (undici `Agent`, `ProxyAgent`, …) to send through. Default: the adapter's own keep-alive agent. */
  dispatcher?: Dispatcher;
  /** Milliseconds before a request is given up (an ambiguous `TransportError`, resent under the same txnId). Default 60 000. */
  timeoutMs?: number;
  /** Send text as `m.notice` (the spec's type for automated replies: clients and other bots do not answer it). Default `false`: `m.text`. */
  notice?: boolean;
  /**
   * Let the reply's text notify people as Matrix's legacy push rules read it: `@room` pings the
   * whole room (when the bot's power level allows), a user ID or display name pings that user.
   * Default `false`: every event, edits and media included, carries an empty `m.mentions`,
   * which turns those rules off, so a model's `@room` pings nobody.
   */
  mentions?: boolean;
  /**
   * Send plaintext into end-to-end encrypted rooms. The adapter does not encrypt (E2EE is out
   * of scope); by default it refuses such a room with an `AuthError` naming it, since its
   * members' clients would show the plaintext marked as unencrypted. Default `false`.
   */
  allowUnencryptedInEncryptedRooms?: boolean;
  /** The homeserver's upload limit in bytes (`m.upload.size` of `/_matrix/client/v1/media/config`). Default 50 MiB. */
  maxUploadBytes?: number;
  /** The homeserver's message rate limit for the bot's user. Default Synapse's `rc_message` (0.2/s, burst 10). */
  rateLimit?: MatrixRateLimit;
  /** Policy for loading media (local roots, allowed hosts, …); the byte limit is lowered to the homeserver's. */
  media?: MediaPolicy;
  /**
   * Retry bounds. The homeserver deduplicates a repeated txnId and every send's txnId is its
   * operation's stable key, so the engine resends a failure after the request may have arrived
   * within the send's retries (`Transport.deduplicatesByKey`). A part left ambiguous by an
   * earlier run is reported, not resent, unless `retryAmbiguous` is set or the repeat says
   * `ambiguous: "resend"`: the homeserver remembers transactions only for a while.
   */
  retry?: RetryPolicy;
  /** Clock for pacing and retry waits. Default: the real clock. */
  clock?: Clock;
  /** Pacing below the homeserver's limits (margin, recovery after a 429, a shared gate). Default: core's. */
  pacing?: PacingOptions;
  /** Journal for once-only delivery (`idempotencyKey`). Default: in memory. */
  store?: DeliveryStore;
}
