/**
 * Public types of the Telegram Bot API emulator. What it records and the faults it takes
 * are the conformance suite's own types.
 */
import type { Fault, ObservedFormat, ObservedMessage } from "@outbox/core";

export type { Fault, ObservedFormat, ObservedMessage };

/** A chat the emulator knows. Messages to any other chat fail with "chat not found". */
export interface EmulatedChat {
  /** Chat id (negative for groups). */
  id: number;
  /** Chat type; default `private` for positive ids, `supergroup` for negative ones. */
  type?: "private" | "group" | "supergroup" | "channel";
  /** Forum topics that exist: a list of ids, or `any` (every id except the General topic 1). Default none. */
  topics?: number[] | "any";
}

/** Token-bucket limits the emulator enforces with 429s. */
export interface EmulatorRateLimits {
  /** Messages per second per chat, with `perChatBurst` allowed at once. Default 1. */
  perChatPerSecond?: number;
  /** Burst size per chat. Default 5. */
  perChatBurst?: number;
  /** Messages per minute per group chat (negative id). Default 20. */
  perGroupPerMinute?: number;
  /** Messages per second overall. Default 30. */
  globalPerSecond?: number;
}

/** A URL download's answer, as `fetch` gives it. */
export interface FetchedUrl {
  /** HTTP status. */
  status: number;
  /** `content-type` header, if any. */
  contentType?: string | null;
  /** The body. */
  body: AsyncIterable<Uint8Array> | null;
}

/** Options of {@link startTelegramEmulator}. */
export interface TelegramEmulatorOptions {
  /** The bot token the emulator accepts; any other gets 401. Default `123456:outbox-emulator`. */
  token?: string;
  /** Chats that exist. Default: one private chat, id 42. */
  chats?: EmulatedChat[];
  /** Rate limits; `false` turns them off. Default: Telegram's (about 1/s per chat, 20/min per group, 30/s). */
  rateLimits?: EmulatorRateLimits | false;
  /**
   * Downloads media given as an http(s) URL, as Telegram's servers do. Default: global `fetch`.
   * Tests inject one that reaches a local fixture server (self-signed certificate).
   */
  fetchUrl?: (url: string, signal: AbortSignal) => Promise<FetchedUrl>;
  /** Time source for rate limits and idle connections, in milliseconds. Default `performance.now`. */
  now?: () => number;
  /**
   * Close keep-alive connections idle this long (no `Keep-Alive: timeout` hint is sent), and
   * reset a request arriving on a connection idle this long by `now` (the request crossed the
   * close). Default: Node's server default (5 s, announced in a `Keep-Alive` header).
   */
  idleTimeoutMs?: number;
}
