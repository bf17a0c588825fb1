/**
 * What Matrix carries, as data (client-server API v1.x; see docs/adapters/matrix.md): one
 * event is at most 65,536 bytes as the homeserver stores it, so a text chunk is measured by
 * what its event weighs (both `body` and `formatted_body`, JSON-escaped); media go to the
 * content repository first and every item is its own event (no albums); voice notes are
 * MSC3245 `m.audio` events; replies, threads and edits (`m.replace`) are relations.
 */
import { type Capabilities, validateCapabilities } from "@outbox/core";
import { MAX_CONTENT_BYTES } from "./render/weight.js";

/** Synapse's default `max_upload_size`: 50 MiB. A homeserver's own is in `GET /_matrix/client/v1/media/config`. */
export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/**
 * Synapse's default `rc_message` rate limit: 0.2 events a second per user, bursts of 10
 * (docs/usage/configuration/config_documentation.md). Bots are often exempted by the
 * homeserver's admin (`/_synapse/admin/v1/users/{userId}/override_ratelimit`): then raise it.
 */
export const SYNAPSE_MESSAGE_RATE = { perSecond: 0.2, burst: 10 } as const;

/** A homeserver's per-user message rate limit. */
export interface MatrixRateLimit {
  /** Events a second per user, over every room. */
  perSecond: number;
  /** Events that may go at once after a quiet period. */
  burst: number;
}

/** Options of {@link matrixCapabilitiesFor}. */
export interface MatrixCapabilityOptions {
  /** The homeserver's upload limit in bytes. Default 50 MiB (Synapse's). */
  maxUploadBytes?: number;
  /** The homeserver's message rate limit for the bot's user. Default Synapse's (0.2/s, burst 10). */
  rateLimit?: MatrixRateLimit;
}

/** Matrix's capabilities for a homeserver's limits. Checked and deeply frozen by core. */
export function matrixCapabilitiesFor(options: MatrixCapabilityOptions = {}): Capabilities {
  const { perSecond, burst } = options.rateLimit ?? SYNAPSE_MESSAGE_RATE;
  const intervalMs = Math.max(1, Math.round(1000 / perSecond));
  return validateCapabilities({
    text: { maxLength: MAX_CONTENT_BYTES, format: "matrix-html" },
    caption: { maxLength: MAX_CONTENT_BYTES },
    media: {
      // A GIF is an `m.image` (clients animate it); there is no separate animation type.
      kinds: ["image", "animation", "video", "audio", "document"],
      maxBytes: { default: options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES },
    },
    album: null,
    // Element shows no text on a voice message: the text goes first, as its own message.
    voice: { mode: "native", formats: ["audio/ogg"], caption: false },
    // The homeserver stores a reply to an unknown event; the adapter checks the target first
    // and refuses, so the engine sends without the quote and records the degradation.
    replies: true,
    threads: true,
    markdownImages: true,
    // rc_message counts every event the user sends (messages, edits, redactions), all rooms.
    rateLimits: [{ scope: "global", limit: 1, intervalMs, burst }],
    edits: { minIntervalMs: intervalMs },
  });
}

/** Matrix's capabilities with Synapse's defaults. */
export const matrixCapabilities: Capabilities = matrixCapabilitiesFor();
