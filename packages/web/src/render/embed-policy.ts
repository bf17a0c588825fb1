/**
 * The embed policy (spec: protocol.md, "[embed ...]"): a canvas renders inline only from an
 * `https:` URL or a root-relative path (`/…`, never `//…` or `/\…`, which browsers read as
 * another host). Anything else is shown as a link, never framed.
 */

/** A path on this origin: `/` then printable ASCII, never `//` (another host). */
const ROOT_RELATIVE = /^\/(?!\/)[\x21-\x7e]*$/;

/** The URL to frame for a canvas, or `undefined` when the policy does not allow framing it. */
export function embedSource(url: string): string | undefined {
  if (url.startsWith("/")) return ROOT_RELATIVE.test(url) && !url.includes("\\") ? url : undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** The href of the fallback link for a canvas that is not framed: only `http:`/`https:`, else none. */
export function embedLinkHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}
