/**
 * How hosted media is offered: only images, audio and video a platform previews are shown in
 * place; everything else (SVG, HTML, PDF, archives) downloads, so a document opened from a
 * link never renders on the host's origin. Shared by every host so they agree.
 */

/** Types shown in place: what platforms preview. SVG is not among them (it can carry script). */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif)|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+)$/;

/**
 * The `Content-Disposition` a host serves `mimeType` with: `undefined` for a type shown in
 * place, else `attachment` with the name in ASCII and in UTF-8 (RFC 6266).
 */
export function contentDisposition(mimeType: string, fileName: string): string | undefined {
  if (INLINE.test(mimeType)) return undefined;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
