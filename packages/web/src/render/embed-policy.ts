/**
 * The embed policy (spec: protocol.md, "[embed ...]"): a canvas renders inline only from an
 * `https:` URL or a root-relative path (`/…`, never `//…` or `/\…`, which browsers read as
 * another host) under one of the allowed path prefixes: by default only the canvas prefix
 * `/__openclaw__/canvas/`, because a frame's request carries the reader's cookies for the
 * host app (the sandbox stops the frame's script, not the request: `/account/delete?confirm=1`
 * would be fetched). Anything else is shown as a link, never framed.
 */

import { ConfigError } from "@outbox/core";

/** Root-relative prefixes a canvas may be framed from unless the host allows more. */
export const DEFAULT_EMBED_PATHS: readonly string[] = ["/__openclaw__/canvas/"];

/**
 * The `embedPaths` option checked: each a root-relative path (`/…`, not `//…`).
 * @throws ConfigError naming the first bad entry.
 */
export function checkEmbedPaths(paths: readonly string[] | undefined): readonly string[] {
  if (paths === undefined) return DEFAULT_EMBED_PATHS;
  for (const [index, path] of (Array.isArray(paths) ? paths : [paths]).entries()) {
    if (typeof path !== "string" || !ROOT_RELATIVE.test(path) || path.includes("\\"))
      throw new ConfigError("the web inbox", `must be a root-relative path (got ${JSON.stringify(path)})`, {
        field: `embedPaths[${index}]`,
        fix: 'write it as "/canvases/": one leading slash, no "//" or backslash',
      });
  }
  return paths;
}

/** A path on this origin: `/` then printable ASCII, never `//` (another host). */
const ROOT_RELATIVE = /^\/(?!\/)[\x21-\x7e]*$/;

/** The root-relative URL as the browser will request it (dot segments resolved), if under a prefix. */
function confined(url: string, paths: readonly string[]): string | undefined {
  if (!ROOT_RELATIVE.test(url) || url.includes("\\")) return undefined;
  const resolved = new URL(url, "http://inbox.invalid");
  const inside = paths.some((prefix) => resolved.pathname.startsWith(prefix));
  return inside ? `${resolved.pathname}${resolved.search}${resolved.hash}` : undefined;
}

/**
 * The URL to frame for a canvas, or `undefined` when the policy does not allow framing it.
 * `paths`: the root-relative prefixes allowed (each `/…`, ending in `/` to mean a folder);
 * default {@link DEFAULT_EMBED_PATHS}.
 */
export function embedSource(url: string, paths: readonly string[] = DEFAULT_EMBED_PATHS): string | undefined {
  if (url.startsWith("/")) return confined(url, paths);
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
