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
   * `"link"` is `media: { passThrough: true }` under its earlier name: media loaded from an
   * https URL is sent as the message's `link` and WhatsApp fetches it itself, instead of
   * being uploaded to `/{phone-number-id}/media`. Only a URL that core's media policy
   * accepted is ever handed over. WhatsApp reports a link it cannot fetch later, as a
   * `failed` status in its webhook (the receipt already says sent): see
   * docs/adapters/whatsapp.md, "Media by link". Default `"upload"` (unless `media.passThrough`).
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
