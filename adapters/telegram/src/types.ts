/**
 * Configuration of the Telegram adapter.
 */
import type { Clock, DeliveryStore, MediaPolicy, PacingOptions, RetryPolicy } from "@outbox/core";
import type { Api, Bot } from "grammy";

/** Options of {@link createTelegramAdapter}: a token or a ready grammY client, plus delivery settings. */
export interface TelegramAdapterConfig {
  /** Bot token from @BotFather. The adapter builds its own grammY `Api` from it. Required unless `client` is given. */
  token?: string;
  /**
   * A ready grammY `Bot` or `Api` to send through (its `bot.api` for a `Bot`). Its installed
   * transformers stay in place; do not install `@grammyjs/auto-retry` on it: the engine
   * retries, and auto-retry would retry stream uploads without end.
   */
  client?: Bot | Api;
  /** Bot API server root without a trailing slash (a local Bot API server, or the emulator). Only with `token`. Default `https://api.telegram.org`. */
  apiRoot?: string;
  /** Seconds before a request is given up (an ambiguous `TransportError`). Only with `token`. Default 60. */
  timeoutSeconds?: number;
  /**
   * Close a keep-alive connection idle this long, before the server closes it (a request
   * racing the server's close is reset). Only with `token`. Default 4 000 (under the 5 s of
   * common servers; a reconnect costs one TLS handshake). See docs/delivery.md, "Stale sockets".
   */
  keepAliveIdleMs?: number;
  /** Show link previews under text messages. Default `true`. */
  linkPreview?: boolean;
  /** Policy for loading media (local roots, allowed hosts, …); the byte limit is lowered to Telegram's. */
  media?: MediaPolicy;
  /** Retry bounds for 429s and failures before sending. */
  retry?: RetryPolicy;
  /** Clock for pacing and retry waits. Default: the real clock. */
  clock?: Clock;
  /** Pacing below Telegram's limits (safety margin, recovery after a 429). Default: core's (3% margin). */
  pacing?: PacingOptions;
  /** Journal for once-only delivery (`idempotencyKey`). Default: in memory. */
  store?: DeliveryStore;
}
