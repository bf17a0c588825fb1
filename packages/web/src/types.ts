/**
 * Configuration of the web adapter and of the inbox server.
 */
import type {
  ChannelAdapter,
  Clock,
  DeliveryStore,
  MediaPolicy,
  PacingOptions,
  RetryPolicy,
} from "@outbox/core";
import type { WebMessageStore } from "./store/types.js";

/** Options of {@link createWebAdapter}. */
export interface WebAdapterConfig {
  /** Where delivered messages and media go; share it with the inbox server. Default: a new in-memory store. */
  store?: WebMessageStore;
  /** Policy for loading media (local roots, allowed hosts, …). */
  media?: MediaPolicy;
  /** Retry bounds. */
  retry?: RetryPolicy;
  /** Clock for pacing and retry waits. Default: the real clock. */
  clock?: Clock;
  /** Pacing options (the web declares no rate limits, so rarely needed). */
  pacing?: PacingOptions;
  /** Journal for once-only delivery (`idempotencyKey`). Default: in memory. */
  journal?: DeliveryStore;
}

/** The web adapter: a channel adapter plus the store it writes to. */
export interface WebAdapter extends ChannelAdapter {
  /** The store messages are appended to; hand it to {@link startWebInbox}. */
  readonly store: WebMessageStore;
}

/** How the inbox decides who may read a conversation. */
export interface WebInboxAuth {
  /**
   * Secret (at least 32 characters) that signs conversation tokens: a conversation's token
   * is HMAC-SHA256(secret, conversation id), so one conversation's token reads no other.
   * Mint links with {@link conversationToken} or `inbox.urlFor(conversation)`.
   */
  secret: string;
}

/** Options of {@link createWebInboxApp}, {@link createWebInboxHandler} and {@link startWebInbox}. */
export interface WebInboxOptions {
  /** Who may read a conversation. Required: without a valid token, no messages (401/403). */
  auth: WebInboxAuth;
  /** The store the adapter writes to. Default: a new in-memory store. */
  store?: WebMessageStore;
  /** Page title. Default `Outbox`. */
  title?: string;
  /** Send `Secure` on the conversation cookie (serve over https). Default `false` (local use). */
  secureCookie?: boolean;
  /** Milliseconds between SSE keep-alive comments. Default 15 000. */
  keepAliveMs?: number;
  /**
   * Root-relative path prefixes a canvas embed may be framed from (each starting with `/`;
   * end it with `/` to allow a folder). A frame's request carries the reader's cookies for
   * the host app, so only paths that serve canvases belong here. Default
   * `["/__openclaw__/canvas/"]` (where `[embed ref=…]` points); `https:` canvases are framed
   * regardless. Other root-relative embeds show as text, never framed.
   */
  embedPaths?: readonly string[];
}

/** Options of {@link startWebInbox}: the server options plus where to listen. */
export interface StartWebInboxOptions extends WebInboxOptions {
  /** Port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
}
