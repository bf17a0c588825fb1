/**
 * Options and state types of the Matrix homeserver emulator.
 */

/** A room the emulator knows. */
export interface EmulatedMatrixRoom {
  /** Room id (`!abc:outbox.test`). */
  id: string;
  /** Aliases naming it (`#room:outbox.test`). */
  aliases?: string[];
  /** The bot's user has joined (else 403 `M_FORBIDDEN` on every send). Default `true`. */
  joined?: boolean;
  /** The room has an `m.room.encryption` state event (Megolm). Default `false`. */
  encrypted?: boolean;
}

/** A per-user rate limit as Synapse runs `rc_message`: a token bucket. */
export interface EmulatorRateLimit {
  /** Events a second. */
  perSecond: number;
  /** Bucket size. */
  burst: number;
}

/** Options of `startMatrixEmulator`. */
export interface MatrixEmulatorOptions {
  /** Access token it accepts. Default a fixed test token. */
  accessToken?: string;
  /** Rooms that exist. Default one joined, unencrypted room, {@link DEFAULT_ROOM}. */
  rooms?: EmulatedMatrixRoom[];
  /** Upload limit in bytes (413 `M_TOO_LARGE` above it). Default 50 MiB (Synapse's `max_upload_size`). */
  maxUploadBytes?: number;
  /** `rc_message` for the bot's user; `false` disables it. Default Synapse's: 0.2/s, burst 10. */
  rateLimit?: EmulatorRateLimit | false;
  /** Clock in milliseconds for the rate limit. Default `performance.now()`. */
  now?: () => number;
}

/** The homeserver's name in ids. */
export const SERVER_NAME = "outbox.test";
/** The bot's user id. */
export const BOT_USER = `@outbox-bot:${SERVER_NAME}`;
/** Default room id. */
export const DEFAULT_ROOM = `!outboxroom:${SERVER_NAME}`;
