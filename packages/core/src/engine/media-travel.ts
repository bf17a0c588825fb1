/**
 * Media that travels as a URL, made ready right before its part is sent: an item passed
 * through gets its own URL, an item for the media host is put there (once per part, so
 * every retry hands the platform the same link), and a hosted link in the text becomes the
 * text message carrying it. What each item became is kept for the receipt message.
 */
import type { ReceiptMedia, Renderer } from "../adapter/types.js";
import type { HostedMedia, MediaHost } from "../media/host/types.js";
import type { LoadedMedia } from "../media/types.js";
import { linkPart } from "../plan/build-plan.js";
import type { AlbumPart, MediaPart, PartTravel, TextPart } from "../plan/types.js";

/** What a part's media needs to travel: the host and the renderer of a hosted link. */
export interface TravelContext {
  /** `MediaPolicy.host`, when configured. */
  host?: MediaHost;
  /** The adapter's renderer, for a hosted link in the text. */
  renderer?: Renderer;
  /** Cancels a put. */
  signal?: AbortSignal;
}

/** A part ready for the transport, and how its items travel (absent when all go as bytes). */
export interface TravellingPart {
  /** The part as sent. */
  part: TextPart | MediaPart | AlbumPart;
  /** One entry per item, for the receipt message; absent when every item is uploaded. */
  media?: ReceiptMedia[];
}

/** A text part as it travels: ready as it is; the hosted links it carries are its receipt entries. */
export function textTravel(part: TextPart): TravellingPart {
  return part.sources.length === 0
    ? { part }
    : { part, media: part.sources.map((source) => ({ source, via: "link" })) };
}

/** Make a media or album part's media ready to travel (see the module comment). */
export async function prepareTravel(
  part: MediaPart | AlbumPart,
  context: TravelContext,
): Promise<TravellingPart> {
  if (part.type === "media") {
    const made = await ready(part.media, part.via, context);
    const media = [receiptEntry(part.sources[0] ?? 0, part.via, made.hosted)];
    if (part.via === "hosted-link") {
      if (context.renderer === undefined) throw new TypeError("a hosted link needs the adapter's renderer");
      return { part: linkPart(made.url ?? "", context.renderer, part.sources), media };
    }
    return {
      part: made.url === undefined ? part : { ...part, url: made.url },
      media: unlessAllUploaded(media),
    };
  }
  const items = await Promise.all(part.items.map((item) => ready(item.media, item.via, context)));
  const media = part.items.map((item, index) =>
    receiptEntry(part.sources[index] ?? index, item.via, items[index]?.hosted),
  );
  return {
    part: {
      ...part,
      items: part.items.map((item, index) => {
        const url = items[index]?.url;
        return url === undefined ? item : { ...item, url };
      }),
    },
    media: unlessAllUploaded(media),
  };
}

/** The receipt entries with the items a transport uploaded instead of its `url` (by index) marked `upload`. */
export function uploadedInstead(
  media: ReceiptMedia[] | undefined,
  indexes: number[] | undefined,
): ReceiptMedia[] | undefined {
  if (media === undefined || indexes === undefined || indexes.length === 0) return media;
  return unlessAllUploaded(
    media.map((entry, index) => (indexes.includes(index) ? { source: entry.source, via: "upload" } : entry)),
  );
}

async function ready(
  media: LoadedMedia,
  via: PartTravel | undefined,
  context: TravelContext,
): Promise<{ url?: string; hosted?: HostedMedia }> {
  if (via === "url" && media.source.type === "url") return { url: media.source.url };
  if (via !== "hosted" && via !== "hosted-link") return {};
  if (context.host === undefined)
    throw new TypeError("the plan put an item on a media host, and none is configured");
  const hosted = await context.host.put(
    media,
    context.signal === undefined ? {} : { signal: context.signal },
  );
  return { url: hosted.url, hosted };
}

function receiptEntry(
  source: number,
  via: PartTravel | undefined,
  hosted: HostedMedia | undefined,
): ReceiptMedia {
  return { source, via: via ?? "upload", ...(hosted === undefined ? {} : { expiresAt: hosted.expiresAt }) };
}

/** Entries only when an item went otherwise than as uploaded bytes (no entries means all were). */
function unlessAllUploaded(media: ReceiptMedia[]): ReceiptMedia[] | undefined {
  return media.every((entry) => entry.via === "upload") ? undefined : media;
}
