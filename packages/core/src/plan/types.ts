import type { Root } from "mdast";
import type { RenderedText } from "../adapter/types.js";
import type { OutboxError } from "../errors/errors.js";
import type { LoadedMedia, MediaKind, MediaTravel } from "../media/types.js";

/** A degradation: what was asked for, what is delivered instead, and the rule applied. */
export interface Degradation {
  /** What was asked for (`voice`, `image`, `reply`, `media`, `caption`, …). */
  from: string;
  /** What is delivered instead (`audio`, `document`, `link`, `none`, `text`, …). */
  to: string;
  /** Why, for people reading the receipt. */
  reason: string;
}

/** A degradation attached to a plan part. */
export interface PartDegradation extends Degradation {
  /** Index of the plan part. */
  part: number;
}

/** One media reference after loading: loaded, degraded to a link, or failed. */
export type MediaInput =
  | {
      /** The item was loaded under the policy. */
      status: "loaded";
      /** The loaded item. */
      media: LoadedMedia;
    }
  | {
      /** The item is too large to upload but has a public https source: it goes as a link. */
      status: "link";
      /** The https URL. */
      url: string;
      /** Why it could not be uploaded. */
      reason: string;
    }
  | {
      /** The item could not be used. */
      status: "failed";
      /** Why (a `MediaError` from the loader, usually). */
      error: OutboxError;
    };

/** What every part records about its origin. */
export interface PartOrigin {
  /** Indexes into `PlanInput.media` of the items this part carries (empty for a text chunk). */
  sources: number[];
}

/** A text message of the plan: a chunk of the reply, or a media link. */
export interface TextPart extends PartOrigin {
  /** Discriminator. */
  type: "text";
  /** The chunk's tree. */
  tree: Root;
  /** Rendered text within the platform limit, with its plain fallback. */
  text: RenderedText;
}

/** One media item sent natively. */
export interface MediaPart extends PartOrigin {
  /** Discriminator. */
  type: "media";
  /** The native operation. */
  kind: MediaKind | "voice";
  /** The item. */
  media: LoadedMedia;
  /** How it travels, when not as uploaded bytes (`hosted-link`: a text message with its hosted link). */
  via?: PartTravel;
  /** The URL the platform fetches (`via` `url` or `hosted`): set by the engine when it sends the part. */
  url?: string;
  /** The whole reply text as caption, when it fits. */
  caption?: RenderedText;
}

/** How a media part's item travels: {@link MediaTravel} without `link`, which is a text part. */
export type PartTravel = Exclude<MediaTravel, "link">;

/** Several media items sent as one album. */
export interface AlbumPart extends PartOrigin {
  /** Discriminator. */
  type: "album";
  /** The members, in order. */
  items: Array<{ kind: MediaKind; media: LoadedMedia; via?: PartTravel; url?: string }>;
  /** The whole reply text as caption, when it fits. */
  caption?: RenderedText;
}

/** An input item that cannot be delivered: it keeps its place and is reported. */
export interface FailedPart extends PartOrigin {
  /** Discriminator. */
  type: "failed";
  /** Why. */
  error: OutboxError;
}

/** One part of a plan: the unit of receipts and of once-only delivery. */
export type PlanPart = TextPart | MediaPart | AlbumPart | FailedPart;

/** What to send, in order, and the degradations decided while planning. */
export interface DeliveryPlan {
  /** Parts in delivery order. */
  parts: PlanPart[];
  /** Degradations decided by the plan, by part. */
  degraded: PartDegradation[];
}

/** What the plan is made from. */
export interface PlanInput {
  /** The reply text's tree (see `parseReplyMarkdown`). */
  tree: Root;
  /** Media in payload order, already loaded (or not). */
  media: MediaInput[];
  /** Present audio as voice notes where possible. */
  audioAsVoice: boolean;
  /** What the integrator configured for media that can travel as a URL; default neither. */
  travel?: TravelOptions;
}

/** The integrator's media options the plan decides by (from `MediaPolicy`). */
export interface TravelOptions {
  /** `MediaPolicy.passThrough`: hand the platform an item's own https URL where it fetches URLs. */
  passThrough?: boolean;
  /** A `MediaPolicy.host` is configured. */
  host?: boolean;
}
