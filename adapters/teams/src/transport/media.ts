/**
 * The attachment of a media item as Teams takes it from a bot, which uploads no files: core
 * put the item on `media.host` and hands its link (`op.url`); an image goes as an image
 * attachment Teams fetches, any other file as a card naming the file with a button opening
 * the link.
 */
import type { MediaOperation } from "@outbox/core";

/** One Bot Framework attachment. */
export type Attachment = Record<string, unknown>;

/** The attachment linking `op.media`. */
export function attachmentFor(op: MediaOperation): Attachment {
  const { media, url } = op;
  // The capabilities declare no uploads, so the plan gives every item a URL (or fails it before any call).
  if (url === undefined)
    throw new TypeError(`Teams takes no uploaded file, and ${media.fileName} came without a URL`);
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
