import type { Capabilities } from "../adapter/types.js";
import { MediaError, UnsupportedFeatureError } from "../errors/errors.js";
import type { LoadedMedia, MediaKind } from "../media/types.js";
import { chooseTravel, type KindDecision, linkInText, uploadLimit } from "./travel.js";
import type { Degradation, TravelOptions } from "./types.js";

/**
 * Choose the native operation for one item: voice vs audio, photo rules (dimensions,
 * aspect ratio, photo size limit) → document, kinds the platform lacks → image (for an
 * animation) or document, MIME types a kind does not take (`media.formats`) → document, else
 * `MediaError("unsupported-type")`, and finally how it travels ({@link chooseTravel}): its
 * own URL (pass-through), its bytes (a document when only that fits), a hosted link the
 * platform fetches, a link in the text, else `MediaError("too-large")`.
 */
export function decideKind(
  media: LoadedMedia,
  capabilities: Capabilities,
  audioAsVoice: boolean,
  travel: TravelOptions = {},
): KindDecision {
  const degraded: Degradation[] = [];
  let kind: MediaKind | "voice" = media.kind;
  const accepts = (k: MediaKind): boolean => capabilities.media.kinds.includes(k);
  const kindFormats = capabilities.media.formats;
  const takes = (k: MediaKind): boolean => kindFormats?.[k]?.includes(media.mimeType) ?? true;
  const demote = (to: MediaKind, reason: string): void => {
    degraded.push({ from: kind, to, reason });
    kind = to;
  };

  if (kind === "audio" && audioAsVoice) {
    const { mode, formats } = capabilities.voice;
    if (mode === "native" && formats.includes(media.mimeType)) kind = "voice";
    else
      degraded.push({
        from: "voice",
        to: "audio",
        reason:
          mode === "native"
            ? `${media.mimeType} is not a voice-note format here (accepted: ${formats.join(", ")})`
            : "the platform has no voice notes",
      });
  }
  if (kind === "image") {
    const reason = photoRefusal(media, capabilities);
    if (reason !== undefined && accepts("document")) demote("document", reason);
  }
  if (kind === "animation" && !accepts("animation")) {
    if (accepts("image") && takes("image")) demote("image", "the platform has no animation messages");
    else if (accepts("document")) demote("document", "the platform has no animation messages");
  }
  if (kind !== "voice" && !accepts(kind)) {
    if (!accepts("document")) {
      const reason = `the platform does not accept ${kind}`;
      const refusal = new UnsupportedFeatureError("media", reason);
      if (capabilities.media.hostedLinks === undefined) return { outcome: "failed", error: refusal };
      return linkInText(media, kind, capabilities, travel, degraded, reason, refusal);
    }
    demote("document", `the platform does not accept ${kind}`);
  }
  if (kind !== "voice" && !takes(kind)) {
    const reason = `the platform's ${kind} messages take ${kindFormats?.[kind]?.join(", ")}, not ${media.mimeType}`;
    if (kind === "document" || !accepts("document") || !takes("document"))
      return {
        outcome: "failed",
        error: new MediaError(
          "unsupported-type",
          `${media.mimeType} cannot be sent here: ${reason}${kind === "document" ? "" : ", nor as a document"}`,
          { ref: media.fileName },
        ),
      };
    demote("document", reason);
  }
  return chooseTravel(media, kind, capabilities, travel, degraded);
}

function photoRefusal(media: LoadedMedia, capabilities: Capabilities): string | undefined {
  const rules = capabilities.media.image;
  const { width, height } = media;
  if (rules !== undefined && width !== undefined && height !== undefined && width > 0 && height > 0) {
    if (rules.maxDimensionSum !== undefined && width + height > rules.maxDimensionSum)
      return `${width}×${height} exceeds the photo dimension sum of ${rules.maxDimensionSum}`;
    const ratio = Math.max(width, height) / Math.min(width, height);
    if (rules.maxAspectRatio !== undefined && ratio > rules.maxAspectRatio)
      return `aspect ratio ${ratio.toFixed(1)} exceeds ${rules.maxAspectRatio}`;
  }
  const limit = capabilities.media.maxBytes.image;
  // As a document it would have to be uploaded: where none is, the image keeps its kind for a URL.
  if (limit !== undefined && media.size > limit && uploadLimit(capabilities, "document") > 0)
    return `${media.size} bytes is over the photo limit of ${limit}`;
  return undefined;
}
