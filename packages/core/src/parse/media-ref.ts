/**
 * One media reference written in a `MEDIA:` line: cleaning, and whether it is a usable
 * remote URL or local path.
 */
import { checkRemoteMediaUrl, MAX_REFERENCE_LENGTH } from "./remote-url.js";

const LEADING_JUNK = new Set(["`", '"', "'", "[", "{", "("]);
const TRAILING_JUNK = new Set(["`", '"', "'", "\\", "}", ")", "]", ","]);
/** Characters that start a serialized-JSON tail after a file name. */
const JSON_TAIL = new Set(['"', "'", "}", "]", ","]);

/** `name.ext` at the end of a string: the extension is 1–10 letters or digits. */
const EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
/** A URI scheme (`name:`); a single letter is a Windows drive instead. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const DRIVE = /^[A-Za-z]:[\\/]/;

/**
 * Clean a reference as written: strip wrapping quotes and brackets, cut a serialized-JSON
 * tail after a file extension (`/p/img.png"}],"x":1` → `/p/img.png`), and turn a
 * `file://` URL into its decoded path. Returns `""` for a `file:` URL that names another
 * host or does not decode.
 */
export function cleanReference(raw: string): string {
  const value = stripReference(raw);
  return /^file:/i.test(value) ? (fileUrlToPath(value) ?? "") : value;
}

/** {@link cleanReference} without the `file:` conversion. */
export function stripReference(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && LEADING_JUNK.has(raw.charAt(start))) start++;
  for (let i = start; i < end; i++) {
    if (JSON_TAIL.has(raw.charAt(i)) && EXTENSION.test(raw.slice(Math.max(start, i - 11), i))) {
      end = i;
      break;
    }
  }
  while (end > start && TRAILING_JUNK.has(raw.charAt(end - 1))) end--;
  return raw.slice(start, end);
}

/**
 * The local path a `file:` URL names (`file:///p/a%20b.png` → `/p/a b.png`,
 * `file:///C:/x.png` → `C:/x.png`); `undefined` for another host or a bad escape.
 */
export function fileUrlToPath(url: string): string | undefined {
  const match = /^file:\/\/([^/]*)(\/.*)?$/i.exec(url);
  if (!match) return undefined;
  const host = (match[1] ?? "").toLowerCase();
  if (host !== "" && host !== "localhost") return undefined;
  let path: string;
  try {
    path = decodeURIComponent(match[2] ?? "");
  } catch {
    return undefined;
  }
  if (path === "" || path.includes("\0")) return undefined;
  return /^\/[A-Za-z]:[\\/]/.test(path) ? path.slice(1) : path;
}

/** Whether a string starts with a URI scheme (`https:`, `data:`, …), a drive letter excepted. */
export function hasScheme(value: string): boolean {
  return SCHEME.test(value);
}

/** Whether a reference has a file extension on its last path component. */
export function hasExtension(value: string): boolean {
  const last = value.split(/[\\/]/).pop() ?? "";
  return EXTENSION.test(last) && !last.startsWith(".");
}

/** Whether a reference starts like a rooted local path: `/`, `./`, `~/`, or a drive letter. */
export function isRootedPath(value: string): boolean {
  return /^(?:\/|\.[\\/]|~[\\/])/.test(value) || DRIVE.test(value);
}

/**
 * Whether a stripped reference looks like a local path, valid or not: rooted, `..`, `~…`,
 * UNC, `file:`, or scheme-less with a slash. Such text is never left visible.
 */
export function looksLikeLocalPath(value: string): boolean {
  if (/^file:/i.test(value)) return true;
  if (value === "" || hasScheme(value)) return false;
  return /^(?:[\\/]|\.{1,2}(?:[\\/]|$)|~)/.test(value) || DRIVE.test(value) || /[\\/]/.test(value);
}

/** Options of {@link isValidReference}. */
export interface ReferenceRules {
  /** Accept a bare file name with an extension (`image.png`). */
  allowBare: boolean;
  /** Accept whitespace inside a local path (quoted payloads, paths with spaces). */
  allowSpaces: boolean;
}

/** Whether a cleaned reference is a usable media reference (see protocol.md, `MEDIA:` lines). */
export function isValidReference(value: string, rules: ReferenceRules): boolean {
  if (value === "" || value.length > MAX_REFERENCE_LENGTH) return false;
  if (hasScheme(value)) return checkRemoteMediaUrl(value).ok && value === value.trim();
  // Control characters never belong in a path; other whitespace only where allowed.
  if (/[\u0000-\u001f\u007f]/.test(value)) return false;
  if (!rules.allowSpaces && /\s/.test(value)) return false;
  if (value !== value.trim()) return false;
  if (value.split(/[\\/]/).includes("..")) return false;
  if (value.startsWith("~") && !/^~[\\/]/.test(value)) return false;
  // UNC shares (`\\server\share`, `//server/share`) reach out over the network.
  if (/^(?:\\\\|\/\/)/.test(value)) return false;
  if (isRootedPath(value)) return !/^(?:\/|\.[\\/]|~[\\/]|[A-Za-z]:[\\/])$/.test(value);
  if (/^[A-Za-z]:/.test(value)) return false;
  if (/[\\/]/.test(value)) return true;
  return rules.allowBare && hasExtension(value);
}
