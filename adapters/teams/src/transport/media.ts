/**
 * How a media item travels to Teams, which takes no file upload from a bot in most
 * conversations: an image up to {@link INLINE_IMAGE_MAX_BYTES} goes inline as a `data:` URI;
 * a larger image goes by the URL of the media host as an image attachment; any other file as
 * a card naming the file with a button opening its hosted link. Without a media host, an item
 * that needs one fails before any call, naming the `mediaHost` option.
 */
import { type LoadedMedia, type MediaHost, type MediaOperation, UnsupportedFeatureError } from "@outbox/core";
import { INLINE_IMAGE_MAX_BYTES } from "../capabilities.js";

/** One Bot Framework attachment. */
export type Attachment = Record<string, unknown>;

/** Options of {@link attachmentFor}. */
export interface MediaOptions {
  /** Where items that cannot go inline are put. */
  host?: MediaHost;
  /** Lifetime of a hosted link. */
  ttlMs?: number;
}

/** The attachment carrying `op.media`, putting it on the host first when it cannot go inline. */
export async function attachmentFor(op: MediaOperation, options: MediaOptions): Promise<Attachment> {
  const { media } = op;
  const image = op.kind === "image";
  if (image && media.size <= INLINE_IMAGE_MAX_BYTES)
    return {
      contentType: media.mimeType,
      contentUrl: `data:${media.mimeType};base64,${(await bytesOf(media)).toString("base64")}`,
      name: media.fileName,
    };
  if (options.host === undefined)
    throw new UnsupportedFeatureError(
      "media-host",
      `Teams takes no file upload from a bot: ${image ? `an image over ${INLINE_IMAGE_MAX_BYTES} bytes` : `a ${op.kind}`} (${media.fileName}, ${media.size} bytes) goes by URL, and the adapter has no mediaHost to put it on`,
    );
  const hosted = await options.host.put(media, {
    ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
    ...(op.signal === undefined ? {} : { signal: op.signal }),
  });
  if (image) return { contentType: media.mimeType, contentUrl: hosted.url, name: media.fileName };
  return {
    contentType: "application/vnd.microsoft.card.hero",
    content: {
      title: media.fileName,
      subtitle: `${media.mimeType}, ${describeSize(media.size)}`,
      buttons: [{ type: "openUrl", title: "Open", value: hosted.url }],
    },
  };
}

/** A size as people read it. */
function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function bytesOf(media: LoadedMedia): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of media.open()) chunks.push(chunk);
  return Buffer.concat(chunks);
}
