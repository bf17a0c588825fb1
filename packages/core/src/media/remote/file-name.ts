/**
 * The file name of remote media: `content-disposition` first, then the URL's last segment.
 */

/** Replaces path separators and NUL, so a name can never become a path. */
function safeName(name: string): string {
  return name.replace(/[\\/\0]/g, "_").trim();
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The name in a `content-disposition` header: `filename*` (RFC 5987) first, then `filename`. */
function fromDisposition(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(header)?.[1];
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header);
  const name = extended === undefined ? (plain?.[1] ?? plain?.[2]) : decode(extended.trim());
  return name === undefined ? undefined : safeName(name) || undefined;
}

/** The name to present: from `content-disposition`, else the URL's last path segment, else `media`. */
export function remoteFileName(url: URL, disposition: string | undefined): string {
  return fromDisposition(disposition) ?? (safeName(decode(url.pathname.split("/").at(-1) ?? "")) || "media");
}
