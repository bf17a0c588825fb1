/**
 * What Slack carries, as data (Web API, 2026; see research/platforms.md §3 and docs/adapters/slack.md).
 */
import { type Capabilities, validateCapabilities } from "@outbox/core";

const GB = 1024 * 1024 * 1024;

/** Slack's capabilities: plain JSON, checked and deeply frozen by core. */
export const slackCapabilities: Capabilities = validateCapabilities({
  // `text` is truncated past 40,000 characters; Slack advises messages of about 4,000.
  text: { maxLength: 40_000, chunkLength: 4000, format: "slack-mrkdwn" },
  // `initial_comment` of files.completeUploadExternal: a message text, kept to the chunk size.
  caption: { maxLength: 4000 },
  media: {
    kinds: ["image", "animation", "video", "audio", "document"],
    maxBytes: { default: 1 * GB },
  },
  // Several files in one files.completeUploadExternal: one message showing them all.
  album: { minItems: 2, maxItems: 10, groups: [["image", "animation", "video", "audio", "document"]] },
  voice: { mode: "as-audio", formats: [] },
  replies: true,
  threads: true,
  // A reply is a thread_ts: a streamed run keeps all its messages in the reply's thread.
  replyThreads: true,
  markdownImages: true,
  // chat.postMessage: about one message per second per channel, "generous burst behavior"
  // allowed (Slack gives no number); a burst of 4, as the emulator enforces. A 429 slows it.
  rateLimits: [{ scope: "target", limit: 1, intervalMs: 1000, burst: 4 }],
  // chat.update is Tier 3 (50+ per minute for the workspace); one edit per 1.5 s keeps a
  // preview at 40 a minute. See docs/adapters/slack.md.
  edits: { minIntervalMs: 1500 },
});
