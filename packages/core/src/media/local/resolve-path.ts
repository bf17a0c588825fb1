/**
 * Local media paths: accepted forms, `..` refusal, and real-path containment in the
 * allowed roots (symlinks resolved, so a link cannot lead outside them).
 */
import { realpath } from "node:fs/promises";
import { isAbsolute, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { MediaError } from "../../errors/errors.js";
import type { ResolvedPolicy } from "../policy.js";

function blocked(ref: string, why: string): MediaError {
  return new MediaError("blocked", `Local media path ${ref} ${why}`, { ref });
}

function hasDotDot(value: string): boolean {
  return value.split(/[\\/]/).includes("..");
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Turns a `file:` URL into a path; only `file:///…` and `file://localhost/…`. */
function pathFromFileUrl(ref: string): string {
  let url: URL;
  try {
    url = new URL(ref);
  } catch {
    throw blocked(ref, "is not a valid file: URL.");
  }
  if (url.hostname !== "" && url.hostname !== "localhost") {
    throw blocked(ref, "names a remote host; only file:///… and file://localhost/… are local.");
  }
  try {
    return fileURLToPath(`file://${url.pathname}`);
  } catch {
    throw blocked(ref, "is not a valid file: URL (encoded slashes are not allowed).");
  }
}

/**
 * The absolute path a reference names, before symlinks are resolved: absolute, `./`,
 * `~/`, workspace-relative or `file:` URL. Refuses `..` segments (also percent-encoded),
 * `~user/…` and NUL bytes before touching the file system.
 */
export function absolutePathOf(ref: string, policy: ResolvedPolicy): string {
  if (ref.includes("\0")) throw blocked(ref, "contains a NUL byte.");
  if (hasDotDot(ref) || hasDotDot(decodeSafely(ref))) {
    throw blocked(ref, "contains a '..' segment; name the file without climbing directories.");
  }
  if (/^file:/i.test(ref)) return pathFromFileUrl(ref);
  if (ref === "~" || ref.startsWith("~/")) return join(policy.homeDir, ref.slice(1));
  if (ref.startsWith("~"))
    throw blocked(ref, "names another user's home directory (~user); use an absolute path.");
  return isAbsolute(ref) ? resolve(ref) : resolve(policy.workspaceDir, ref);
}

async function realRoots(roots: string[]): Promise<string[]> {
  const resolved = await Promise.all(roots.map((root) => realpath(root).catch(() => undefined)));
  return resolved.filter((root): root is string => root !== undefined);
}

/** Whether `path` is `root` or lies below it. */
export function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The refusal of a path outside the roots; it names them so the configuration can be fixed. */
export function outsideRoots(ref: string, policy: ResolvedPolicy): MediaError {
  return blocked(
    ref,
    `is outside the allowed directories (${policy.localRoots.join(", ")}); add its directory to MediaPolicy.localRoots or move the file there.`,
  );
}

/** A local reference resolved inside the roots. */
export interface ResolvedLocalPath {
  /** The real path (symlinks resolved). */
  path: string;
  /** The real paths of the allowed roots, for checking what is opened later. */
  roots: string[];
}

/**
 * The real path of a local reference, which must lie inside one of the policy's roots.
 * Errors name the allowed roots so the configuration can be fixed.
 */
export async function resolveLocalPath(ref: string, policy: ResolvedPolicy): Promise<ResolvedLocalPath> {
  const absolute = absolutePathOf(ref, policy);
  const outside = () => outsideRoots(ref, policy);
  const allowed = await realRoots(policy.localRoots);
  // Lexical check first, so nothing outside the roots is even looked at.
  if (![...policy.localRoots, ...allowed].some((root) => inside(absolute, root))) throw outside();
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    throw new MediaError("not-found", `Local media file ${ref} does not exist.`, { ref, cause: error });
  }
  if (!allowed.some((root) => inside(real, root))) throw outside();
  return { path: real, roots: allowed };
}
