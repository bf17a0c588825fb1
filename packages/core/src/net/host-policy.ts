/**
 * Which host *names* media may be fetched from (IP literals are judged by
 * `isBlockedIp` instead). Shared by `checkRemoteMediaUrl` and the media loader.
 */

/** Names that always mean "this machine" or "this network". */
const BLOCKED_NAMES = new Set(["localhost", "localhost.localdomain", "metadata.google.internal"]);

/** Suffixes of names that never resolve to the public internet. */
const BLOCKED_SUFFIXES = [".localhost", ".local", ".internal"];

/**
 * Whether a host name (as in `URL.hostname`, without brackets) is off limits: empty names,
 * names with an empty label (`example..com`, `example.com..`), names without a dot
 * (`intranet`), `localhost`, `localhost.localdomain`, `*.localhost`, `*.local`,
 * `*.internal`, `metadata.google.internal`, each also with a trailing dot. Case-insensitive.
 * One trailing dot (the fully-qualified form) is allowed on any other name.
 */
export function isBlockedHostname(host: string): boolean {
  let name = host.toLowerCase();
  if (name.endsWith(".")) name = name.slice(0, -1);
  if (name === "" || !name.includes(".")) return true;
  if (name.startsWith(".") || name.endsWith(".") || name.includes("..")) return true;
  if (BLOCKED_NAMES.has(name)) return true;
  return BLOCKED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}
