/**
 * What Teams carries through the Bot Framework connector, as data (sources in
 * docs/adapters/teams.md): one activity is at most 40 KB counted as UTF-16 (inline images
 * excepted), so a text chunk is measured in UTF-16 bytes of its JSON string and kept to 28 KB,
 * leaving the rest for the envelope; text goes as the HTML subset Teams shows (`textFormat:
 * "xml"`); an image up to 1 MB goes inline as a `data:` URI, every other item by the URL of
 * `media.host` (a bot uploads no files): images as image attachments, other files as a card
 * linking them, so videos and audio are documents, never
 * in the same activity as text, so every message the person sees has its own id;
 * no captions, albums or voice notes; threads are channel threads; edits and deletes by
 * activity id; the connector's per-conversation rate limits.
 */
import { type Capabilities, type RateLimit, validateCapabilities } from "@outbox/core";

/** The connector refuses an activity over this many bytes of UTF-16 (`413 MessageSizeTooBig`). */
export const MAX_ACTIVITY_UTF16_BYTES = 40 * 1024;

/** Budget of one text chunk in UTF-16 bytes of its JSON string: 28 KB, the rest left for the envelope. */
export const MAX_TEXT_UTF16_BYTES = 28 * 1024;

/**
 * Largest image sent inline as a `data:` URI. Microsoft documents inline images (and leaves
 * them out of the 40 KB activity limit) but names no size for them: 1 MB is our bound, to be
 * confirmed on a live tenant (docs/adapters/teams.md, "What a live tenant should confirm").
 */
export const INLINE_IMAGE_MAX_BYTES = 1024 * 1024;

/** Largest file Teams is handed by URL from `media.host` (the host may refuse less). */
export const HOSTED_MAX_BYTES = 100 * 1024 * 1024;

/**
 * The connector's documented limits per bot per conversation ("Optimize your bot with rate
 * limiting"): 7 operations a second, 8 in 2 s, 60 in 30 s, 1,800 an hour; and 50 a second per
 * app over every conversation. Sends, edits and deletes all count.
 */
export const TEAMS_RATE_LIMITS: readonly RateLimit[] = [
  { scope: "target", limit: 7, intervalMs: 1000 },
  { scope: "target", limit: 8, intervalMs: 2000 },
  { scope: "target", limit: 60, intervalMs: 30_000 },
  { scope: "target", limit: 1800, intervalMs: 3_600_000 },
  { scope: "global", limit: 50, intervalMs: 1000 },
];

/** Teams' capabilities with these rate limits (Microsoft's by default). */
export function teamsCapabilitiesFor(rateLimits: readonly RateLimit[] = TEAMS_RATE_LIMITS): Capabilities {
  return validateCapabilities({
    text: { maxLength: MAX_TEXT_UTF16_BYTES, format: "teams-html" },
    // Text and attachments in one activity may show as two messages with one id: text goes alone.
    caption: null,
    media: {
      // Teams plays no video or audio a bot sends: they go as documents (a card with the link), said in the receipt.
      kinds: ["image", "document"],
      formats: { image: ["image/png", "image/jpeg", "image/gif"] },
      // "Uploaded" here is an image inline as a `data:` URI; 0 for the rest: never uploaded, so core
      // puts them (and an image over the inline limit) on `media.host` and the transport links them.
      maxBytes: { default: 0, image: INLINE_IMAGE_MAX_BYTES },
      byUrl: { default: HOSTED_MAX_BYTES },
    },
    album: null,
    // Teams has no voice notes from bots: a voice note goes as an audio file, said in the receipt.
    voice: { mode: "as-audio", formats: [] },
    // A bot cannot quote a message; a reply goes without its quote, said in the receipt.
    replies: false,
    // A channel thread: the activity goes to `{conversation};messageid={root}`.
    threads: true,
    markdownImages: true,
    rateLimits: rateLimits.map((rule) => ({ ...rule })),
    // An edit counts against the same per-conversation limits (8 in 2 s): one a second per message stays clear.
    edits: { minIntervalMs: 1000 },
  });
}

/** Teams' capabilities with Microsoft's documented limits: plain JSON, checked and deeply frozen by core. */
export const teamsCapabilities: Capabilities = teamsCapabilitiesFor();
