/**
 * Options and records of the Slack Web API emulator.
 */
export type { Fault, ObservedMessage } from "@outbox/core";

/** A conversation the emulated workspace holds. */
export interface EmulatedConversation {
  /** Channel id (`C…` public, `G…` private). */
  id: string;
  /** The app is a member (else `not_in_channel`). Default `true`. */
  member?: boolean;
  /** Archived (every post answers `is_archived`). Default `false`. */
  archived?: boolean;
}

/** Rate limits the emulator enforces with 429 + `Retry-After`. */
export interface EmulatorRateLimits {
  /** chat.postMessage per channel per second. Default 1. */
  perChannelPerSecond?: number;
  /** Burst of chat.postMessage per channel after a quiet period. Default 4. */
  perChannelBurst?: number;
  /** files.* calls per minute for the workspace (Tier 4). Default 100. */
  filesPerMinute?: number;
  /** Burst of files.* calls. Default 20. */
  filesBurst?: number;
  /** chat.update calls per minute for the workspace (Tier 3), and as many chat.delete calls. Default 50. */
  editsPerMinute?: number;
  /** Burst of chat.update (and of chat.delete) calls. Default 10. */
  editsBurst?: number;
}

/** Options of {@link startSlackEmulator}. */
export interface SlackEmulatorOptions {
  /** The bot token it accepts. Default `xoxb-outbox-emulator`. */
  token?: string;
  /** Tokens answered with `token_revoked`. */
  revokedTokens?: string[];
  /** Conversations. Default one public channel `C0OUTBOX`. */
  channels?: EmulatedConversation[];
  /** User ids a DM can be opened with (`conversations.open`). Default `["U0OUTBOX"]`. */
  users?: string[];
  /** The token's scopes; when set, each method checks its scope (`missing_scope`). Default: every scope. */
  scopes?: string[];
  /** Rate limits, or `false` to turn them off. */
  rateLimits?: EmulatorRateLimits | false;
  /** Completions and `files.info` look-ups that list no shares yet (Slack shares files asynchronously). Default 0. */
  pendingShares?: number;
  /** Milliseconds clock for the rate limits. Default `performance.now`. */
  now?: () => number;
}

/** One message as the emulator stores it (the raw mrkdwn and the files it shows). */
export interface StoredMessage {
  /** Channel id. */
  channel: string;
  /** Message ts. */
  ts: string;
  /** Parent ts when the message is in a thread. */
  threadTs?: string;
  /** The raw `text` / `initial_comment` as sent. */
  text: string;
  /** The `markdown_text` as sent, when the message was posted with it instead of `text`. */
  markdown?: string;
  /** Files shown by the message. */
  files: StoredFile[];
  /** Seeded as a user's message (not part of observations). */
  inbound?: boolean;
  /** Visible texts shown before the current one, oldest first, one per accepted `chat.update`. */
  revisions?: string[];
}

/** An uploaded file. */
export interface StoredFile {
  /** File id. */
  id: string;
  /** Name given to `files.getUploadURLExternal`. */
  fileName: string;
  /** Length declared to `files.getUploadURLExternal`. */
  declared: number;
  /** Title given at completion. */
  title?: string;
  /** Set once the bytes arrived in full. */
  upload?: { bytes: number; sha256: string; mimeType: string };
}
