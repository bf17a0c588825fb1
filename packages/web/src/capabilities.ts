/**
 * What the web inbox carries, as data: long text as sanitized HTML, media inline (images,
 * video and audio players, document downloads), galleries, voice notes as audio players
 * with their duration, replies as quoted references, threads, and no rate limits.
 */
import { type Capabilities, validateCapabilities } from "@outbox/core";

const MB = 1024 * 1024;

/** The web's capabilities: plain JSON, checked and deeply frozen by core. */
export const webCapabilities: Capabilities = validateCapabilities({
  text: { maxLength: 100_000, format: "html" },
  caption: { maxLength: 100_000 },
  media: {
    kinds: ["image", "video", "audio", "document"],
    maxBytes: { default: 50 * MB },
  },
  album: { minItems: 2, maxItems: 20, groups: [["image", "video"], ["audio"], ["document"]] },
  voice: { mode: "native", formats: ["audio/ogg", "audio/mpeg", "audio/mp4", "audio/webm", "audio/wav"] },
  replies: true,
  threads: true,
  markdownImages: false,
  rateLimits: [],
});
