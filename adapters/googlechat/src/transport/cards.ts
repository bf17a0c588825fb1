/**
 * The card of a media item as Google Chat takes it from an app, which uploads no attachments
 * with app authentication: core put the item on `media.host` and hands its link (`op.url`);
 * an image goes as a card's image widget Chat fetches, any other file as a card naming the
 * file with a button opening the link. Card text is Chat's card HTML subset, so the file
 * name is escaped.
 */
import { escapeHtml, type MediaOperation } from "@outbox/core";

/** The `cardsV2` entry linking `op.media`. */
export function cardFor(op: MediaOperation): Record<string, unknown> {
  const { media, url } = op;
  // The capabilities declare no uploads, so the plan gives every item a URL (or fails it before any call).
  if (url === undefined)
    throw new TypeError(`Google Chat takes no uploaded file, and ${media.fileName} came without a URL`);
  const name = escapeHtml(media.fileName);
  const widgets =
    op.kind === "image"
      ? [{ image: { imageUrl: url, altText: media.fileName } }]
      : [
          { decoratedText: { topLabel: `${media.mimeType}, ${describeSize(media.size)}`, text: name } },
          { buttonList: { buttons: [{ text: "Open", onClick: { openLink: { url } } }] } },
        ];
  return { cardId: op.kind === "image" ? "outbox-image" : "outbox-file", card: { sections: [{ widgets }] } };
}

/** A size as people read it. */
function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
