/**
 * Media by content hash: the stored `Content-Type`, `ETag` = the hash (304 on a match), byte
 * ranges (206, 416) for seeking in audio and video, and `Content-Disposition: attachment` for
 * anything that is not an image, video or audio (documents download, never render on the
 * inbox's origin). A store's {@link StreamedMedia} is asked only for the bytes sent.
 */
import type { StoredMedia, StreamedMedia } from "../store/types.js";
import { COMMON_HEADERS, MEDIA_CSP } from "./headers.js";
import { mediaBody, mediaSize } from "./media-body.js";

const INLINE = /^(image\/(png|jpeg|gif|webp|avif)|video\/|audio\/)/;

/** Answer a media request for `media` (already authorized), honouring `Range` and `If-None-Match`. */
export function mediaResponse(
  sha256: string,
  media: StoredMedia | StreamedMedia,
  request: { range: string | null; ifNoneMatch: string | null },
): Response {
  const size = mediaSize(media);
  const headers = new Headers({
    ...COMMON_HEADERS,
    "Content-Security-Policy": MEDIA_CSP,
    "Content-Type": media.mimeType,
    "Accept-Ranges": "bytes",
    ETag: `"${sha256}"`,
    "Cache-Control": "private, max-age=31536000, immutable",
  });
  if (!INLINE.test(media.mimeType)) headers.set("Content-Disposition", disposition(media.fileName));
  if (request.ifNoneMatch?.split(/\s*,\s*/).includes(`"${sha256}"`))
    return new Response(null, { status: 304, headers });
  const { range } = request;
  if (range === null) {
    headers.set("Content-Length", String(size));
    return new Response(mediaBody(media), { status: 200, headers });
  }
  const span = parseRange(range, size);
  if (span === undefined) {
    headers.set("Content-Range", `bytes */${size}`);
    return new Response(null, { status: 416, headers });
  }
  headers.set("Content-Range", `bytes ${span.start}-${span.end}/${size}`);
  headers.set("Content-Length", String(span.end - span.start + 1));
  return new Response(mediaBody(media, span), { status: 206, headers });
}

/** A single `bytes=` range within `size`, or `undefined` when unsatisfiable or malformed. */
export function parseRange(header: string, size: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "") || size === 0) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0 ? undefined : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return start >= size || end < start ? undefined : { start, end };
}

function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
