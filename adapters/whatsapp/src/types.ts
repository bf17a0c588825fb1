/**
 * Configuration of the WhatsApp adapter.
 */
import type { Clock, DeliveryStore, MediaPolicy, PacingOptions, RetryPolicy } from "@outbox/core";
import type { Dispatcher } from "undici";
import type { WhatsAppLimits } from "./capabilities.js";

/** Options of {@link createWhatsAppAdapter}: the number, its token, and delivery settings. */
export interface WhatsAppAdapterConfig {
  /**
   * Access token: a System User's permanent token with `whatsapp_business_messaging` (or the
   * temporary token of the app dashboard, valid 24 hours). Sent as `Authorization: Bearer`.
   */
  token: string;
  /** The business number's Phone number ID (not the phone number itself), from WhatsApp > API Setup. */
  phoneNumberId: string;
  /** Graph API base URL (the emulator's, or a proxy). Default `https://graph.facebook.com`. */
  graphApiUrl?: string;
  /** Graph API version. Default `v25.0`. */
  apiVersion?: string;
  /**
   * undici dispatcher for every Graph call (a proxy `ProxyAgent`, a pool with your timeouts).
   * Default: the adapter's own keep-alive Agent, closed by `close()`; yours is never closed.
   */
  dispatcher?: Dispatcher;
  /** Milliseconds a Graph call may take (headers and body). Default 60 000. */
  timeoutMs?: number;
  /** Let WhatsApp show a preview of the first URL in a text message (`preview_url`). Default `false`. */
  previewUrl?: boolean;
  /**
   * How media loaded from an https URL travels: `"upload"` (default) streams its bytes to
   * `/{phone-number-id}/media` and sends the message by media id, so a fetch or type problem
   * shows before the message is sent; `"link"` sends the URL as the message's `link` and
   * WhatsApp fetches it itself (nothing uploaded, nothing held). Only a URL that core's media
   * policy accepted is ever handed over (https, no credentials, a public address after DNS,
   * `allowHosts`; its probe reads the head to learn the type and size): a refused URL fails
   * with `MediaError("blocked")` before any call. Local files and inline bytes are always
   * uploaded. WhatsApp reports a link it cannot fetch later, as a `failed` status in its
   * webhook (the receipt already says sent): see docs/adapters/whatsapp.md, "Media by link".
   */
  mediaByLink?: "upload" | "link";
  /** Throughput and pair rate of the number, when they differ from Meta's defaults. */
  limits?: WhatsAppLimits;
  /** Policy for loading media (local roots, allowed hosts, …); the byte limit is lowered to WhatsApp's. */
  media?: MediaPolicy;
  /** Retry bounds for 429s and failures before sending. */
  retry?: RetryPolicy;
  /** Clock for pacing and retry waits. Default: the real clock. */
  clock?: Clock;
  /** Pacing below the platform's limits. Default: core's. */
  pacing?: PacingOptions;
  /** Journal for once-only delivery (`idempotencyKey`). Default: in memory. */
  store?: DeliveryStore;
}
