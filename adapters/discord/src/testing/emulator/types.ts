/**
 * Options and state types of the Discord API emulator.
 */

/** A channel the emulator knows. */
export interface EmulatedDiscordChannel {
  /** Snowflake id. */
  id: string;
  /** `text` (guild text channel), `dm`, or `thread` (with `parent`). Default `text`. */
  type?: "text" | "dm" | "thread";
  /** Parent text channel of a thread. */
  parent?: string;
  /** The bot can see the channel (else 50001 Missing Access). Default `true`. */
  visible?: boolean;
  /** The bot may send messages (else 50013 Missing Permissions). Default `true`. */
  canSend?: boolean;
  /** The bot may send voice messages here (else 50173). Default `true`. */
  voiceMessages?: boolean;
}

/** A fixed-window bucket, as Discord announces with `X-RateLimit-*` headers. */
export interface EmulatorBucket {
  /** Requests per window. */
  limit: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** Options of `startDiscordEmulator`. */
export interface DiscordEmulatorOptions {
  /** Bot token it accepts (`Authorization: Bot <token>`). Default a fixed test token. */
  token?: string;
  /** Channels that exist. Default one text channel, {@link DEFAULT_CHANNEL}. */
  channels?: EmulatedDiscordChannel[];
  /** User ids a DM channel can be opened with. Default one user, {@link DEFAULT_USER}. */
  users?: string[];
  /** Per-file upload limit in bytes (40005 above it). Default 10 MiB. */
  maxUploadBytes?: number;
  /** Whole-request limit in bytes (40005 above it). Default 25 MiB. */
  maxRequestBytes?: number;
  /** Create Message bucket per channel; `false` disables it. Default 5 per 5 s. */
  messageBucket?: EmulatorBucket | false;
  /** Requests per second per bot over every route (Discord's global limit); `false` disables it. Default 50. */
  globalPerSecond?: number | false;
  /** Edit Message bucket per channel, and as large a Delete Message one; `false` disables both. Default 5 per 5 s. */
  editBucket?: EmulatorBucket | false;
  /** Clock in milliseconds for the buckets and the nonce window. Default `performance.now()`. */
  now?: () => number;
  /**
   * How long an enforced `nonce` is remembered (Discord: "the past few minutes"; the
   * emulator takes the low end). Default 120 000.
   */
  nonceWindowMs?: number;
  /**
   * Accept the id of a message in a text channel as the id of a thread started from it (on
   * Discord such a thread has the message's id; here it need not be created first). Default `true`.
   */
  threadsFromMessages?: boolean;
}

/** Default channel id. */
export const DEFAULT_CHANNEL = "1100000000000000001";
/** Default DM-able user id. */
export const DEFAULT_USER = "1200000000000000001";
