/**
 * One media reference written in a `MEDIA:` line: cleaning, and whether it is a usable
 * remote URL or local path.
 */
import { checkRemoteMediaUrl, hasControlCharacter, MAX_REFERENCE_LENGTH } from "./remote-url.js";

const LEADING_JUNK = charTable("`\"'[{(");
const TRAILING_JUNK = charTable("`\"'\\})],");
/** Characters that start a serialized-JSON tail after a file name. */
const JSON_TAIL = charTable("\"'}],");

function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** `name.ext` at the end of a string: the extension is 1–10 letters or digits. */
const EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
/** A URI scheme (`name:`); a single letter is a Windows drive instead. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]+:/;
const DRIVE = /^[A-Za-z]:[\\/]/;

/** A `file:` URL becomes its path (`""` when it cannot); anything else is returned as is. */
export function toPath(value: string): string {
  return /^file:/i.test(value) ? (fileUrlToPath(value) ?? "") : value;
}

/**
 * Clean a reference as written: strip wrapping quotes and brackets and cut a
 * serialized-JSON tail after a file extension (`/p/img.png"}],"x":1` → `/p/img.png`).
 * {@link toPath} then turns a `file:` URL into its path.
 */
export function stripReference(raw: string): string {
  let start = 0;
  let end = raw.length;
  while (start < end && LEADING_JUNK[raw.charCodeAt(start)] === 1) start++;
  for (let i = start + 2; i < end; i++) {
    if (
      JSON_TAIL[raw.charCodeAt(i)] === 1 &&
      isAlphanumeric(raw.charCodeAt(i - 1)) &&
      endsWithExtension(raw, start, i)
    ) {
      end = i;
      break;
    }
  }
  while (end > start && TRAILING_JUNK[raw.charCodeAt(end - 1)] === 1) end--;
  return raw.slice(start, end);
}

/** Whether `raw[start, end)` ends with `.ext` (1–10 letters or digits). */
function endsWithExtension(raw: string, start: number, end: number): boolean {
  let i = end - 1;
  while (i >= start && end - i <= 10 && isAlphanumeric(raw.charCodeAt(i))) i--;
  return i > start && i < end - 1 && raw.charCodeAt(i) === 46;
}

/** Whether a path has a `..` segment anywhere (separators `/` and `\`). */
function hasParentSegment(value: string): boolean {
  for (let at = value.indexOf(".."); at !== -1; at = value.indexOf("..", at + 1)) {
    const before = value.charCodeAt(at - 1);
    const after = value.charCodeAt(at + 2);
    const startsSegment = at === 0 || before === 47 || before === 92;
    const endsSegment = at + 2 === value.length || after === 47 || after === 92;
    if (startsSegment && endsSegment) return true;
  }
  return false;
}

function isAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
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
  const last = value.slice(Math.max(value.lastIndexOf("/"), value.lastIndexOf("\\")) + 1);
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
  return referenceProblem(value, rules) === undefined;
}

/** Why a cleaned reference is not a usable media reference, or `undefined` when it is. */
export function referenceProblem(value: string, rules: ReferenceRules): string | undefined {
  if (value === "") return "it is empty";
  if (value.length > MAX_REFERENCE_LENGTH) return `it is longer than ${MAX_REFERENCE_LENGTH} characters`;
  if (hasScheme(value)) {
    const check = checkRemoteMediaUrl(value);
    if (!check.ok) return check.reason;
    return value === value.trim() ? undefined : "it has surrounding whitespace";
  }
  // Control characters never belong in a path; other whitespace only where allowed.
  if (hasControlCharacter(value, false)) return "it contains control characters";
  if ((!rules.allowSpaces && /\s/.test(value)) || value !== value.trim()) return "it contains whitespace";
  if (hasParentSegment(value)) return "it contains a '..' segment";
  if (value.startsWith("~") && !/^~[\\/]/.test(value))
    return "it names another user's home directory (~user)";
  // UNC shares (`\\server\share`, `//server/share`) reach out over the network.
  if (/^(?:\\\\|\/\/)/.test(value)) return "it is a network share (UNC path)";
  if (isRootedPath(value))
    return /^(?:\/|\.[\\/]|~[\\/]|[A-Za-z]:[\\/])$/.test(value)
      ? "it names a directory, not a file"
      : undefined;
  if (/^[A-Za-z]:/.test(value)) return "it is a drive-relative Windows path";
  if (/[\\/]/.test(value)) return undefined;
  return rules.allowBare && hasExtension(value) ? undefined : "it is not a path or https URL";
}
