/**
 * `loadMedia`: the one entry point that turns a media reference into {@link LoadedMedia}
 * under a {@link MediaPolicy}, whatever the reference is (https URL, local path, inline).
 */
import { MediaError } from "../errors/errors.js";
import type { MediaAttachment } from "../payload/types.js";
import { loadInline, parseDataUri } from "./inline/load-inline.js";
import { loadLocal } from "./local/load-local.js";
import { type ResolvedPolicy, resolvePolicy } from "./policy.js";
import { loadRemote } from "./remote/load-remote.js";
import type { LoadedMedia, MediaPolicy } from "./types.js";

/** How messages show a `data:` URI: its start only. */
function shorten(uri: string): string {
  return uri.length > 40 ? `${uri.slice(0, 40)}…` : uri;
}

function loadDataUri(
  uri: string,
  policy: ResolvedPolicy,
  attachment?: MediaAttachment,
): Promise<LoadedMedia> {
  const ref = shorten(uri);
  const parsed = parseDataUri(uri, ref, policy.maxBytes);
  const declaredMime = attachment?.mimeType ?? parsed.declaredMime;
  return loadInline(
    {
      ref,
      bytes: parsed.bytes,
      ...(declaredMime === undefined ? {} : { declaredMime }),
      ...(attachment?.fileName === undefined ? {} : { fileName: attachment.fileName }),
    },
    policy,
  );
}

function loadString(raw: string, policy: ResolvedPolicy): Promise<LoadedMedia> {
  const ref = raw.trim();
  if (/^data:/i.test(ref)) return loadDataUri(ref, policy);
  if (/^file:/i.test(ref)) return loadLocal(ref, policy);
  if (/^https:/i.test(ref)) return loadRemote(ref, policy);
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(ref);
  if (scheme !== null) {
    throw new MediaError(
      "blocked",
      `Media ${JSON.stringify(ref.slice(0, 80))} was refused: only https: URLs, local paths and data: URIs are loaded, not ${scheme[1]}:.`,
      { ref },
    );
  }
  return loadLocal(ref, policy);
}

function loadAttachment(attachment: MediaAttachment, policy: ResolvedPolicy): Promise<LoadedMedia> {
  const named = attachment.fileName === undefined ? {} : { fileName: attachment.fileName };
  if (attachment.filePath !== undefined) {
    return loadLocal(attachment.filePath, policy, { declaredMime: attachment.mimeType, ...named });
  }
  if (attachment.base64 !== undefined && /^\s*data:/i.test(attachment.base64)) {
    return loadDataUri(attachment.base64.trim(), policy, attachment);
  }
  const bytes =
    attachment.data ?? (attachment.base64 === undefined ? undefined : { base64: attachment.base64 });
  if (bytes === undefined) {
    throw new MediaError(
      "not-found",
      "Media attachment has no bytes: give filePath, base64 or data (sourceUrl is never fetched).",
    );
  }
  return loadInline({ ref: "inline media", bytes, declaredMime: attachment.mimeType, ...named }, policy);
}

/**
 * Loads a media reference under a policy, before any platform call. A string may be an
 * https URL, a local path (absolute, `./`, `~/`, workspace-relative, `file://`) or a
 * `data:` URI; an attachment carries a file path or inline bytes. Nothing that fails the
 * policy is fetched or read.
 *
 * @throws MediaError with reason `blocked`, `too-large`, `not-found`, `fetch-failed` or
 *   `unsupported-type`; its message says what to change.
 */
export async function loadMedia(ref: string | MediaAttachment, policy?: MediaPolicy): Promise<LoadedMedia> {
  const resolved = resolvePolicy(policy);
  if (resolved.signal?.aborted) {
    throw new MediaError("fetch-failed", "Loading media was cancelled before it started.", {
      ...(typeof ref === "string" ? { ref } : {}),
    });
  }
  try {
    return await (typeof ref === "string" ? loadString(ref, resolved) : loadAttachment(ref, resolved));
  } catch (error) {
    if (error instanceof MediaError) throw error;
    // An unexpected failure (a file-system error, …) still reaches the receipt as a media failure.
    throw new MediaError(
      "fetch-failed",
      `Loading media failed: ${error instanceof Error ? error.message : String(error)}`,
      {
        ...(typeof ref === "string" ? { ref } : {}),
        cause: error,
      },
    );
  }
}
