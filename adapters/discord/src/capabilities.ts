/**
 * What Discord carries, as data (API v10; see research/platforms.md §4): 2,000-character
 * content (also the text of a message with attachments), up to 10 attachments per message,
 * 10 MiB per file by default (more on boosted servers), voice messages from OGG/Opus that
 * carry no text, replies, threads (a thread is a channel).
 */
import { type Capabilities, validateCapabilities } from "@outbox/core";

/** Discord's default per-file upload limit: 10 MiB. */
export const DEFAULT_MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Discord's capabilities for a given per-file upload limit (10 MiB by default; a server
 * boosted to tier 2 allows 50 MiB, tier 3 100 MiB). Checked and deeply frozen by core.
 */
export function discordCapabilitiesFor(maxUploadBytes: number = DEFAULT_MAX_UPLOAD_BYTES): Capabilities {
  return validateCapabilities({
    text: { maxLength: 2000, format: "discord-markdown" },
    caption: { maxLength: 2000 },
    media: {
      kinds: ["image", "animation", "video", "audio", "document"],
      maxBytes: { default: maxUploadBytes },
    },
    album: {
      minItems: 2,
      maxItems: 10,
      // One message may mix kinds; grouped as Discord lays them out (a gallery of images and
      // videos, audio players, file cards) so each message reads as one thing.
      groups: [["image", "animation", "video"], ["audio"], ["document"]],
    },
    voice: { mode: "native", formats: ["audio/ogg"], caption: false },
    replies: true,
    threads: true,
    markdownImages: true,
    rateLimits: [
      { scope: "target", limit: 5, intervalMs: 5000 },
      { scope: "global", limit: 50, intervalMs: 1000 },
    ],
    // Edit Message has its own bucket per channel (5 per 5 s): one edit a second stays in it.
    // See docs/adapters/discord.md.
    edits: { minIntervalMs: 1000 },
  });
}

/** Discord's capabilities with the default 10 MiB upload limit. */
export const discordCapabilities: Capabilities = discordCapabilitiesFor();
