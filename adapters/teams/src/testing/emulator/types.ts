/**
 * Options and records of the Teams connector emulator.
 */
import type { LookupFunction } from "node:net";
import type { ObservedMessage, RateLimit } from "@outbox/core";

export type { Fault, ObservedMessage } from "@outbox/core";

/** The kinds of Teams conversation. */
export type ConversationType = "personal" | "groupChat" | "channel";

/** A conversation the emulator knows. */
export interface EmulatedConversation {
  /** Its id (`a:1…` personal, `19:…@thread.v2` group chat, `19:…@thread.tacv2` channel). */
  id: string;
  /** Its kind; only a channel has threads. Default `personal`. */
  type?: ConversationType;
  /** Whether the bot is in it (installed in the team or chat). Default `true`. */
  member?: boolean;
}

/** Options of {@link startTeamsEmulator}. */
export interface TeamsEmulatorOptions {
  /** The bot's app id the identity platform knows. Default a fixed GUID. */
  clientId?: string;
  /** Its client secret. Default a fixed test value. */
  clientSecret?: string;
  /** Its tenant. Default a fixed GUID. */
  tenantId?: string;
  /** How long a token lives. Default one hour (`expires_in: 3599`). */
  tokenLifetimeMs?: number;
  /** Conversations; more can be added with `addConversation`. */
  conversations?: EmulatedConversation[];
  /** The connector's rate limits enforced with 429s (Microsoft's by default), or `false` for none. */
  rateLimits?: readonly RateLimit[] | false;
  /** Milliseconds clock for tokens and rate limits. Default `Date.now`. */
  now?: () => number;
  /**
   * How Teams connects to the URLs it fetches: a test CA to trust and a resolver (the
   * conformance media server's). Default: the system's.
   */
  fetchConnect?: { ca?: string; lookup?: LookupFunction };
}

/** One activity as the emulator stores it. */
export interface StoredActivity {
  /** The activity id answered. */
  id: string;
  /** The conversation (without `;messageid=`). */
  conversation: string;
  /** The channel thread's root, when posted in one. */
  thread?: string;
  /** The activity as sent (its latest edit). */
  activity: Record<string, unknown>;
  /** What the Teams client shows. */
  observed: ObservedMessage;
  /** A message of the person's (seeded), not part of observations. */
  inbound?: boolean;
  /** Deleted: Teams shows "This message has been deleted." and nothing of it. */
  deleted?: boolean;
}
