/**
 * The file name of remote media: `content-disposition` first, then the URL's last segment.
 */
import { cleanFileName } from "../file-name.js";

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
  return name === undefined ? undefined : cleanFileName(name) || undefined;
}

/**
 * The name to present, cleaned by {@link cleanFileName}: from `content-disposition`, else the
 * URL's last path segment; `undefined` when neither leaves a name (the item is then named
 * after its kind).
 */
export function remoteFileName(url: URL, disposition: string | undefined): string | undefined {
  return (
    fromDisposition(disposition) ?? (cleanFileName(decode(url.pathname.split("/").at(-1) ?? "")) || undefined)
  );
}
