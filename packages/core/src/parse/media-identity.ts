/**
 * Media identity: when two references name the same media (protocol.md, "Media identity").
 */
import { homedir } from "node:os";
import { isAbsolute, resolve, win32 } from "node:path";
import { fileUrlToPath, hasScheme } from "./media-ref.js";

/**
 * The identity of a media reference: trimmed; a `file://` URL becomes its decoded path;
 * `~/` expands to the home directory; a relative path resolves against `workspaceDir`
 * (default `process.cwd()`); a URL gets a lower-case scheme and host, no default port and
 * no fragment. Two references are the same media when their identities are equal.
 */
export function mediaIdentity(ref: string, workspaceDir?: string): string {
  const trimmed = ref.trim();
  if (trimmed === "") return "";
  if (/^file:/i.test(trimmed)) {
    const path = fileUrlToPath(trimmed);
    return path === undefined ? trimmed : localIdentity(path, workspaceDir);
  }
  if (hasScheme(trimmed)) {
    try {
      const url = new URL(trimmed);
      url.hash = "";
      return url.href;
    } catch {
      return trimmed;
    }
  }
  return localIdentity(trimmed, workspaceDir);
}

function localIdentity(path: string, workspaceDir: string | undefined): string {
  if (/^[A-Za-z]:[\\/]/.test(path)) return win32.normalize(path);
  if (/^~[\\/]/.test(path)) return resolve(homedir(), path.slice(2));
  if (isAbsolute(path)) return resolve(path);
  return resolve(workspaceDir ?? process.cwd(), path);
}

/**
 * The identities an attachment (`media[]` item) is known by before it is loaded: its
 * `filePath` and its `sourceUrl`, each as {@link mediaIdentity}. Inline bytes alone have
 * none (their identity is their content, compared once loaded).
 */
export function attachmentIdentities(
  item: { filePath?: string | undefined; sourceUrl?: string | undefined },
  workspaceDir?: string,
): string[] {
  return [item.filePath, item.sourceUrl].flatMap((ref) =>
    ref === undefined || ref.trim() === "" ? [] : [mediaIdentity(ref, workspaceDir)],
  );
}
