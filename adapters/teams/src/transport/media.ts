/**
 * The attachment of a media item as Teams takes it from a bot, which uploads no files: an
 * image the plan uploads (up to {@link INLINE_IMAGE_MAX_BYTES}) goes inline as a `data:` URI;
 * any other item core put on `media.host` and hands its link (`op.url`): an image as an image
 * attachment Teams fetches, any other file as a card naming the file with a button opening
 * the link.
 */
import type { LoadedMedia, MediaOperation } from "@outbox/core";
import { INLINE_IMAGE_MAX_BYTES } from "../capabilities.js";

/** One Bot Framework attachment. */
export type Attachment = Record<string, unknown>;

/** The attachment carrying `op.media`: inline, or linking it. */
export async function attachmentFor(op: MediaOperation): Promise<Attachment> {
  const { media, url } = op;
  if (url === undefined) {
    // The capabilities upload nothing but images within the inline limit; the plan holds to them.
    if (op.kind !== "image" || media.size > INLINE_IMAGE_MAX_BYTES)
      throw new TypeError(`Teams takes no uploaded ${op.kind}, and ${media.fileName} came without a URL`);
    const data = (await bytesOf(media)).toString("base64");
    return {
      contentType: media.mimeType,
      contentUrl: `data:${media.mimeType};base64,${data}`,
      name: media.fileName,
    };
  }
  if (op.kind === "image") return { contentType: media.mimeType, contentUrl: url, name: media.fileName };
  return {
    contentType: "application/vnd.microsoft.card.hero",
    content: {
      title: media.fileName,
      subtitle: `${media.mimeType}, ${describeSize(media.size)}`,
      buttons: [{ type: "openUrl", title: "Open", value: url }],
    },
  };
}

/** A size as people read it. */
function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The item's bytes, read once (at most the inline limit: the plan uploads nothing larger). */
async function bytesOf(media: LoadedMedia): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of media.open()) chunks.push(chunk);
  return Buffer.concat(chunks);
}
