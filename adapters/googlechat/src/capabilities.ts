/**
 * What Google Chat carries for a Chat app, as data (sources in docs/adapters/googlechat.md):
 * a message is at most 32,000 bytes, its text kept to 4,096 characters (what the Chat client
 * lets a person write; the API documents only the byte limit, so the emulator enforces both);
 * text in Google Chat's markup; media by the URL of `media.host` (an app cannot upload
 * attachments with app authentication): images in a card's image widget, other files as a
 * card linking them, so videos and audio are documents; no captions, albums, voice notes or
 * quotes; threads by name or key; edits and deletes by message name; the per-space write
 * quota of 60 a minute.
 */
import { type Capabilities, type RateLimit, validateCapabilities } from "@outbox/core";

/** Most bytes of one message, text and cards included (spaces.messages.create). */
export const MAX_MESSAGE_BYTES = 32_000;

/** Most characters of a message's text. */
export const MAX_TEXT_LENGTH = 4096;

/** Largest file handed to Google Chat by URL from `media.host` (the host may refuse less). */
export const HOSTED_MAX_BYTES = 100 * 1024 * 1024;

/**
 * Google's documented quotas ("Usage limits"): per space 60 writes a minute (create, patch,
 * delete; shared by every app in the space), per project 3,000 message writes a minute.
 * The per-space minute is taken as a burst of 3, then one a second: Google warns that
 * "additional rate limit checks" and high QPS on one space answer 429 too, so a whole
 * minute's quota is never spent at once.
 */
export const GOOGLE_CHAT_RATE_LIMITS: readonly RateLimit[] = [
  { scope: "target", limit: 60, intervalMs: 60_000, burst: 3 },
  { scope: "global", limit: 3000, intervalMs: 60_000 },
];

/** Google Chat's capabilities with these rate limits (Google's by default). */
export function googlechatCapabilitiesFor(
  rateLimits: readonly RateLimit[] = GOOGLE_CHAT_RATE_LIMITS,
): Capabilities {
  return validateCapabilities({
    text: { maxLength: MAX_TEXT_LENGTH, format: "googlechat-markup" },
    // A card's text is another markup (HTML subset) than the message's: text goes alone.
    caption: null,
    media: {
      // Chat plays no video or audio an app links: they go as documents (a card with the link), said in the receipt.
      kinds: ["image", "document"],
      formats: { image: ["image/png", "image/jpeg", "image/gif"] },
      // An app uploads no attachments: core puts every item on `media.host` and the transport links it (`op.url`).
      maxBytes: { default: HOSTED_MAX_BYTES },
      uploads: false,
      byUrl: { default: HOSTED_MAX_BYTES },
    },
    album: null,
    // No voice notes from an app: a voice note goes as an audio file (then a document), said in the receipt.
    voice: { mode: "as-audio", formats: [] },
    // An app's message cannot quote another: a reply goes without its quote, said in the receipt.
    replies: false,
    // `target.thread`: a thread's name (`spaces/…/threads/…`) or a thread key.
    threads: true,
    markdownImages: true,
    rateLimits: rateLimits.map((rule) => ({ ...rule })),
    // An edit is a write against the same 60 a minute: one a second per message stays clear.
    edits: { minIntervalMs: 1000 },
  });
}

/** Google Chat's capabilities with Google's documented quotas: plain JSON, checked and deeply frozen by core. */
export const googlechatCapabilities: Capabilities = googlechatCapabilitiesFor();
