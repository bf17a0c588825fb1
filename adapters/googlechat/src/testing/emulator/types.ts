/**
 * Options and records of the Google Chat emulator.
 */
import type { LookupFunction } from "node:net";
import type { ObservedMessage, RateLimit } from "@outbox/core";

export type { Fault, ObservedMessage } from "@outbox/core";

/** A space the emulator knows. */
export interface EmulatedSpace {
  /** Its name (`spaces/AAAA…`). */
  name: string;
  /** Whether the Chat app is a member. Default `true`. */
  member?: boolean;
}

/** Options of {@link startGoogleChatEmulator}. */
export interface GoogleChatEmulatorOptions {
  /** How long a token lives. Default one hour. */
  tokenLifetimeMs?: number;
  /** Spaces; more can be added with `addSpace`. */
  spaces?: EmulatedSpace[];
  /** The per-space and per-project quotas enforced with 429s (Google's by default), or `false` for none. */
  rateLimits?: readonly RateLimit[] | false;
  /** Milliseconds clock for tokens, JWT times and quotas. Default `Date.now`. */
  now?: () => number;
  /** How Chat connects to the URLs it fetches: a test CA to trust and a resolver. Default: the system's. */
  fetchConnect?: { ca?: string; lookup?: LookupFunction };
}

/** One message as the emulator stores it. */
export interface StoredMessage {
  /** Its system-assigned name (`spaces/…/messages/…`). */
  name: string;
  /** Its client-assigned id, when it has one. */
  clientId?: string;
  /** The space. */
  space: string;
  /** Its thread's name. */
  thread: string;
  /** Posted into an existing thread (a reply), not as the thread's first message. */
  reply: boolean;
  /** The message as sent (its latest edit). */
  message: Record<string, unknown>;
  /** What the Chat client shows. */
  observed: ObservedMessage;
  /** A message of a person's (seeded), not part of observations. */
  inbound?: boolean;
  /** Deleted. */
  deleted?: boolean;
}
