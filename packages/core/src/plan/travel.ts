/**
 * How an item whose native kind is settled travels: its own URL (pass-through), its bytes,
 * a link the platform fetches from the media host, its own URL in the text, or a hosted
 * link in the text, in that order of preference, each within its own size limit.
 */
import type { Capabilities } from "../adapter/types.js";
import { MediaError, type OutboxError, UnsupportedFeatureError } from "../errors/errors.js";
import type { LoadedMedia, MediaKind } from "../media/types.js";
import type { Degradation, TravelOptions } from "./types.js";

/** How one loaded item goes out, decided by the capabilities. */
export type KindDecision =
  | { outcome: "send"; kind: MediaKind | "voice"; via: "upload" | "url" | "hosted"; degraded: Degradation[] }
  | { outcome: "hosted-link"; kind: MediaKind | "voice"; degraded: Degradation[] }
  | { outcome: "link"; url: string; degraded: Degradation[] }
  | { outcome: "failed"; error: OutboxError };

type ByKind = Partial<Record<MediaKind, number>> & { default: number };

/** The feature an item that needs a media host names when none is configured. */
export const MEDIA_HOST_FEATURE = "media host";

/** The limit of `kind` in `limits` (a voice note counts as audio); 0 when the way is absent. */
export function kindLimit(limits: ByKind | undefined, kind: MediaKind | "voice"): number {
  if (limits === undefined) return 0;
  return limits[kind === "voice" ? "audio" : kind] ?? limits.default;
}

/** Upload limit for a native operation (a voice note counts as audio); 0 where nothing is uploaded. */
export function uploadLimit(capabilities: Capabilities, kind: MediaKind | "voice"): number {
  return capabilities.media.uploads === false ? 0 : kindLimit(capabilities.media.maxBytes, kind);
}

/** The platform fetches `media`'s own URL: an https source the loader checked. */
function ownUrl(media: LoadedMedia): string | undefined {
  return media.source.type === "url" && media.source.url.startsWith("https:") ? media.source.url : undefined;
}

/**
 * Choose how `media`, to go as `kind`, travels. `degraded` holds what deciding the kind
 * noted so far; a demotion to a document for size is noted here.
 */
export function chooseTravel(
  media: LoadedMedia,
  kind: MediaKind | "voice",
  capabilities: Capabilities,
  travel: TravelOptions,
  degraded: Degradation[],
): KindDecision {
  const { byUrl } = capabilities.media;
  const url = ownUrl(media);
  if (travel.passThrough === true && url !== undefined && media.size <= kindLimit(byUrl, kind))
    return { outcome: "send", kind, via: "url", degraded };
  if (media.size <= uploadLimit(capabilities, kind))
    return { outcome: "send", kind, via: "upload", degraded };
  if (
    kind !== "document" &&
    capabilities.media.kinds.includes("document") &&
    media.size <= uploadLimit(capabilities, "document")
  ) {
    degraded.push({
      from: kind,
      to: "document",
      reason: `${media.size} bytes is over the ${kind} limit of ${uploadLimit(capabilities, kind)}`,
    });
    return { outcome: "send", kind: "document", via: "upload", degraded };
  }
  const fetchable = media.size <= kindLimit(byUrl, kind);
  if (fetchable && travel.host === true) return { outcome: "send", kind, via: "hosted", degraded };
  const limit = uploadLimit(capabilities, kind);
  const reason =
    limit === 0
      ? `the platform takes no uploaded ${capabilities.media.uploads === false ? "files" : kind}${fetchable ? "" : `, and ${media.size} bytes is over its URL limit of ${kindLimit(byUrl, kind)}`}`
      : `${media.size} bytes is over the upload limit of ${limit}`;
  const refusal = fetchable ? needsHost(media, "as a link the platform fetches") : undefined;
  return linkInText(media, kind, capabilities, travel, degraded, reason, refusal);
}

/**
 * The item goes as a link in the text, or fails: its own public URL first, else its media
 * host's link within `hostedLinks`, else `refusal` (default `MediaError("too-large")`).
 * Without a host, an item a host would carry fails naming the missing host.
 */
export function linkInText(
  media: LoadedMedia,
  kind: MediaKind | "voice",
  capabilities: Capabilities,
  travel: TravelOptions,
  degraded: Degradation[],
  reason: string,
  refusal?: OutboxError,
): KindDecision {
  const url = ownUrl(media);
  if (url !== undefined) {
    degraded.push({ from: kind, to: "link", reason });
    return { outcome: "link", url, degraded };
  }
  if (media.size <= kindLimit(capabilities.media.hostedLinks, kind)) {
    if (travel.host !== true)
      return { outcome: "failed", error: needsHost(media, `as a link in the text (${reason})`) };
    degraded.push({ from: kind, to: "link", reason: `${reason}; sent as a hosted link` });
    return { outcome: "hosted-link", kind, degraded };
  }
  return {
    outcome: "failed",
    error: refusal ?? new MediaError("too-large", reason, { ref: media.fileName }),
  };
}

/** The failure of an item that can only travel through a media host, with none configured. */
function needsHost(media: LoadedMedia, how: string): UnsupportedFeatureError {
  return new UnsupportedFeatureError(
    MEDIA_HOST_FEATURE,
    `${media.fileName} (${media.size} bytes) can reach this platform only ${how}, and no media host is configured (MediaPolicy.host)`,
  );
}
