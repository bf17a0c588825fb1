/**
 * What WhatsApp carries on the Cloud API, as data (sources in docs/adapters/whatsapp.md):
 * 4,096 characters of text, captions of 1,024 on images, videos and documents, images
 * (JPEG, PNG) up to 5 MB, audio and video up to 16 MB, documents up to 100 MB, voice notes
 * (`audio` with `voice: true`, Ogg/Opus), replies by `context.message_id` (an unknown id is
 * delivered without its quote), no albums, threads or edits.
 */
import { type Capabilities, type RateLimit, validateCapabilities } from "@outbox/core";

const MB = 1024 * 1024;

/** The document types of Meta's table (a photo kept uncompressed goes as a document too); the emulator takes the same. */
export const DOCUMENT_TYPES = [
  "text/plain",
  "application/pdf",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.ms-excel",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ms-powerpoint",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
];

/** The limits the pacer keeps to; Meta's documented figures unless the integrator's number differs. */
export interface WhatsAppLimits {
  /**
   * Messages per second the business number may send (Cloud API throughput): 80 by default,
   * 20 for a number shared with the WhatsApp Business app ("coexistence"), 1,000 once Meta
   * upgrades the number. Default 80.
   */
  throughputPerSecond?: number;
  /**
   * The pair rate limit: one message to the same person per this many milliseconds
   * (Meta: one every 6 seconds, error 131056). Default 6000. Lower it only against an emulator.
   */
  pairIntervalMs?: number;
  /** Messages to one person that may go at once before the pair rate applies (Meta: bursts of up to 45). Default 45. */
  pairBurst?: number;
}

/** Meta's documented figures (docs/adapters/whatsapp.md, "Limits"). */
export const WHATSAPP_LIMITS: Required<WhatsAppLimits> = {
  throughputPerSecond: 80,
  pairIntervalMs: 6000,
  pairBurst: 45,
};

/** The declared rate limits for a number with these limits. */
function rateLimits(limits: WhatsAppLimits): RateLimit[] {
  const { throughputPerSecond, pairIntervalMs, pairBurst } = { ...WHATSAPP_LIMITS, ...limits };
  return [
    { scope: "target", limit: 1, intervalMs: pairIntervalMs, burst: pairBurst },
    { scope: "global", limit: throughputPerSecond, intervalMs: 1000 },
  ];
}

/** WhatsApp's capabilities for a number with these limits (Meta's figures when omitted). */
export function whatsappCapabilitiesFor(limits: WhatsAppLimits = {}): Capabilities {
  return validateCapabilities({
    // text.body: "Maximum 4096 characters". Counted in UTF-16 units here, the stricter reading.
    text: { maxLength: 4096, format: "whatsapp-markup" },
    // image, video and document captions: at most 1,024 characters; audio has none.
    caption: { maxLength: 1024, kinds: ["image", "video", "document"] },
    media: {
      kinds: ["image", "video", "audio", "document"],
      // "Supported media types": a GIF or a WAV is taken by no message type.
      formats: {
        image: ["image/jpeg", "image/png"],
        video: ["video/mp4", "video/3gpp"],
        audio: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
        document: [...DOCUMENT_TYPES, "image/jpeg", "image/png"],
      },
      maxBytes: { default: 100 * MB, image: 5 * MB, video: 16 * MB, audio: 16 * MB },
      // A message's `link` is fetched by Meta within the same limits (MediaPolicy.passThrough).
      byUrl: { default: 100 * MB, image: 5 * MB, video: 16 * MB, audio: 16 * MB },
    },
    album: null,
    // `audio` with `voice: true` shows a voice note (Ogg/Opus only); it carries no caption.
    voice: { mode: "native", formats: ["audio/ogg"], caption: false },
    // context.message_id: an id WhatsApp does not know is delivered without the quote.
    replies: { unknownTarget: "ignored" },
    threads: false,
    markdownImages: true,
    rateLimits: rateLimits(limits),
  });
}

/** WhatsApp's capabilities with Meta's documented limits: plain JSON, checked and deeply frozen by core. */
export const whatsappCapabilities: Capabilities = whatsappCapabilitiesFor();
