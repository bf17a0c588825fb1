import { type Capabilities, validateCapabilities } from "@outbox/core";

/**
 * What the reference platform carries: everything, with small limits so the split cases stay
 * fast. It counts requests, and a media message or an album is an upload then a post.
 */
export const referenceCapabilities: Capabilities = validateCapabilities({
  text: { maxLength: 1000, format: "reference-html" },
  caption: { maxLength: 200 },
  media: {
    kinds: ["image", "animation", "video", "audio", "document"],
    maxBytes: { default: 5_000_000, image: 1_000_000 },
  },
  album: { minItems: 2, maxItems: 4, groups: [["image", "video"], ["document"], ["audio"]] },
  voice: { mode: "native", formats: ["audio/ogg", "audio/mpeg"] },
  replies: true,
  threads: true,
  markdownImages: true,
  rateLimits: [{ scope: "target", limit: 20, intervalMs: 1000, requests: { media: 2, album: 2 } }],
  edits: { minIntervalMs: 200 },
});
