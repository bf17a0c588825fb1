/**
 * The string-level policy for remote media URLs: public `https:` only. The media loader
 * repeats the address check on every resolved address.
 */
import { isBlockedHostname } from "../net/host-policy.js";
import { isBlockedIp } from "../net/ip-policy.js";

/** Longest reference accepted, URL or path. */
export const MAX_REFERENCE_LENGTH = 4096;

/** Outcome of {@link checkRemoteMediaUrl}. */
export type RemoteUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

/**
 * Check that a URL may be fetched as media: `https:` only, no userinfo, a public host
 * (no dotless names, `localhost`, `*.local`, `*.internal`, empty labels; IP literals outside
 * every special-use range, IPv4 written only in canonical dotted form). Malformed URLs and
 * literals fail closed. On success `url` is the canonical form the checks were made on
 * (WHATWG `href`: `https://example.com\\@127.0.0.1/a.png` → `https://example.com/@127.0.0.1/a.png`);
 * pass only that form onward, since other URL parsers may read the raw string differently.
 */
export function checkRemoteMediaUrl(url: string): RemoteUrlCheck {
  const trimmed = url.trim();
  if (trimmed.length === 0) return { ok: false, reason: "empty URL" };
  if (trimmed.length > MAX_REFERENCE_LENGTH) return { ok: false, reason: "URL longer than 4096 characters" };
  if (!/^https:\/\//i.test(trimmed)) return { ok: false, reason: "only https: URLs are allowed" };
  // Control characters and spaces would be silently removed or encoded by the URL parser.
  if (hasControlCharacter(trimmed, true))
    return { ok: false, reason: "URL contains spaces or control characters" };
  const authority = /^https:\/\/([^/?#\\]*)/i.exec(trimmed)?.[1] ?? "";
  if (authority.includes("@")) return { ok: false, reason: "URL contains userinfo" };
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return { ok: false, reason: "malformed URL" };
  }
  const host = parsed.hostname;
  if (host.startsWith("[")) {
    return isBlockedIp(host.slice(1, -1))
      ? { ok: false, reason: "blocked IP address" }
      : { ok: true, url: parsed.href };
  }
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) {
    const written = authority.replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase();
    if (written !== host) return { ok: false, reason: "IPv4 address not written in canonical dotted form" };
    return isBlockedIp(host) ? { ok: false, reason: "blocked IP address" } : { ok: true, url: parsed.href };
  }
  if (isBlockedHostname(host)) return { ok: false, reason: "blocked host name" };
  return { ok: true, url: parsed.href };
}

/** Whether a string holds an ASCII control character (or a space, with `spaceToo`). */
export function hasControlCharacter(value: string, spaceToo: boolean): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 32 || c === 127 || (spaceToo && c === 32)) return true;
  }
  return false;
}
