/**
 * Options and records of the WhatsApp Cloud API emulator.
 */
import type { WhatsAppLimits } from "../../capabilities.js";
import type { LinkFetch, LinkFetcher } from "./fetch-links.js";

export type { Fault, ObservedMessage } from "@outbox/core";

/** Options of {@link startWhatsAppEmulator}. */
export interface WhatsAppEmulatorOptions {
  /** The access token it accepts. Default `EAAoutbox-emulator-token`. */
  token?: string;
  /** The business number's Phone number ID. Default `100000000000001`. */
  phoneNumberId?: string;
  /**
   * Numbers a test number may write to (Meta allows up to 5); any other recipient is refused
   * with 131030. Default: no list (a production number writes to anyone who wrote first).
   */
  allowedRecipients?: string[];
  /** Customer service window: how long after the person's last message free-form messages are allowed (131047 after). Default 24 h. */
  windowMs?: number;
  /** Throughput and pair rate enforced with 429s (Meta's figures by default), or `false` for none. */
  limits?: WhatsAppLimits | false;
  /** Milliseconds clock for the window and the rate limits. Default `Date.now`. */
  now?: () => number;
  /** Fetches media sent by `link`, as Meta does (`createLinkFetcher`). Default: links are recorded, never fetched. */
  links?: LinkFetcher;
}

/** An uploaded media object. */
export interface StoredMedia {
  /** Media id answered by `/media`. */
  id: string;
  /** MIME type declared in the `type` field. */
  declared: string;
  /** MIME type sniffed from the bytes (the declared one for types without a signature). */
  mimeType: string;
  /** File name of the multipart file part. */
  fileName: string;
  /** Bytes received. */
  bytes: number;
  /** Hex sha256 of the bytes. */
  sha256: string;
}

/** One message as the emulator stores it. */
export interface StoredMessage {
  /** `wamid.` id. */
  id: string;
  /** The person's WhatsApp id (digits). */
  waId: string;
  /** `text`, `image`, `video`, `audio`, `document`. */
  type: string;
  /** Text body or caption, raw as sent. */
  body?: string;
  /** The media sent by uploaded id, for a media message. */
  media?: StoredMedia;
  /** The https URL a media message named by `link` instead. */
  link?: string;
  /** What fetching `link` got, once the emulator's link fetcher is done with it. */
  fetched?: LinkFetch;
  /** `filename` of a document message. */
  fileName?: string;
  /** `voice: true` of an audio message. */
  voice?: boolean;
  /** The message quoted, when `context.message_id` named one WhatsApp holds. */
  replyTo?: string;
  /** The person's own message (seeded), not part of observations. */
  inbound?: boolean;
}
