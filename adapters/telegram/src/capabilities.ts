/**
 * What Telegram carries, as data (Bot API 10.x; see research/platforms.md §2.4–2.5).
 */
import { type Capabilities, validateCapabilities } from "@outbox/core";

const MB = 1024 * 1024;

/** Telegram's capabilities: plain JSON, checked and deeply frozen by core. */
export const telegramCapabilities: Capabilities = validateCapabilities({
  text: { maxLength: 4096, format: "telegram-html" },
  caption: { maxLength: 1024 },
  media: {
    kinds: ["image", "animation", "video", "audio", "document"],
    maxBytes: { default: 50 * MB, image: 10 * MB },
    byUrl: { default: 20 * MB, image: 5 * MB },
    image: { maxDimensionSum: 10_000, maxAspectRatio: 20 },
  },
  album: { minItems: 2, maxItems: 10, groups: [["image", "video"], ["document"], ["audio"]] },
  voice: { mode: "native", formats: ["audio/ogg", "audio/mpeg", "audio/mp4"] },
  replies: true,
  threads: true,
  markdownImages: true,
  rateLimits: [
    { scope: "target", limit: 1, intervalMs: 1000, burst: 3 },
    { scope: "target", limit: 20, intervalMs: 60_000, match: "^-" },
    { scope: "global", limit: 30, intervalMs: 1000 },
  ],
  // editMessageText counts in the chat's flood limits like a send (about 1/s per chat);
  // the group limit above paces edits in groups too. See docs/adapters/telegram.md.
  edits: { minIntervalMs: 1000 },
});
