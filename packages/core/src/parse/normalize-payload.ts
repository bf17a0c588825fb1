/**
 * `normalizePayload`: validate a runtime's payload, parse its text, and merge structured
 * and textual media into the one payload every adapter consumes.
 */
import { PayloadError } from "../errors/errors.js";
import type {
  MediaAttachment,
  ParseOptions,
  RefusedMedia,
  ReplyPayload,
  ReplyPayloadInput,
} from "../payload/types.js";
import { attachmentIdentities, mediaIdentity } from "./media-identity.js";
import { parseReply } from "./parse-reply.js";
import { MAX_MEDIA, validatePayload } from "./payload-schema.js";
import { checkRemoteMediaUrl } from "./remote-url.js";

/**
 * Normalize a payload: validate it (throwing {@link PayloadError} with every issue), parse
 * its text with {@link parseReply}, then merge media (structured `mediaUrls`, then
 * `mediaUrl`, then media found in the text), trimmed, blanks dropped, deduplicated by
 * {@link mediaIdentity}; an attachment (`media[]`) whose `filePath` or `sourceUrl` names media
 * already referenced (or attached before it) is dropped, the first occurrence kept where it
 * stands. `audioAsVoice` and `replyToCurrent` are OR-ed; an explicit
 * `replyToId` (or `null`) beats a tag; references the text's `MEDIA:` lines refused are
 * kept in `refusedMedia`. Idempotent.
 */
export function normalizePayload(input: ReplyPayloadInput, options: ParseOptions = {}): ReplyPayload {
  const payload = validatePayload(input);
  const parsed = parseReply(payload.text ?? "", options);
  // Text alone (most payloads) has nothing to merge: no list is built for it.
  const mediaUrls = dedupeMedia(
    payload.mediaUrls === undefined && payload.mediaUrl === undefined
      ? parsed.mediaUrls
      : [
          ...(payload.mediaUrls ?? []),
          ...(payload.mediaUrl === undefined ? [] : [payload.mediaUrl]),
          ...parsed.mediaUrls,
        ],
    options.workspaceDir,
  );
  const media =
    payload.media === undefined ? [] : distinctAttachments(payload.media, mediaUrls, options.workspaceDir);
  if (mediaUrls.length + media.length > MAX_MEDIA) {
    throw new PayloadError(`invalid reply payload: more than ${MAX_MEDIA} media`, [
      { path: ["text"], message: `more than ${MAX_MEDIA} media`, code: "too_big" },
    ]);
  }
  const result: ReplyPayload = {
    text: parsed.text,
    mediaUrls,
    media,
    audioAsVoice: payload.audioAsVoice === true || parsed.audioAsVoice,
    replyToCurrent: payload.replyToCurrent === true || parsed.replyToCurrent,
    embeds: payload.embeds === undefined ? parsed.embeds : [...payload.embeds, ...parsed.embeds],
  };
  // A refused `MEDIA:` line stays in the text, so normalizing again finds it again: keep one entry.
  const given = (payload as ReplyPayload).refusedMedia;
  if (given !== undefined || parsed.refusedMedia !== undefined) {
    const refused: RefusedMedia[] = [];
    for (const entry of [...(given ?? []), ...(parsed.refusedMedia ?? [])])
      if (!refused.some((seen) => seen.reference === entry.reference && seen.reason === entry.reason))
        refused.push(entry);
    if (refused.length > 0) result.refusedMedia = refused;
  }
  const replyToId = payload.replyToId !== undefined ? payload.replyToId : parsed.replyToId;
  if (replyToId !== undefined) result.replyToId = replyToId;
  return result;
}

/**
 * Trim, drop blanks, put https URLs that pass {@link checkRemoteMediaUrl} in the canonical
 * form that was checked (only that form goes to the loader and to platforms that fetch
 * URLs themselves), keep the first reference of each media identity.
 */
export function dedupeMedia(refs: readonly string[], workspaceDir?: string): string[] {
  const out: string[] = [];
  if (refs.length === 0) return out;
  const seen = new Set<string>();
  for (const ref of refs) {
    const check = /^https:/i.test(ref.trim()) ? checkRemoteMediaUrl(ref) : undefined;
    const trimmed = check?.ok ? check.url : ref.trim();
    if (trimmed === "") continue;
    const identity = mediaIdentity(trimmed, workspaceDir);
    if (seen.has(identity)) continue;
    seen.add(identity);
    out.push(trimmed);
  }
  return out;
}

/**
 * The attachments that name no media already in `mediaUrls` or in an earlier attachment (by
 * {@link attachmentIdentities}); inline bytes without a name are kept (compared once loaded).
 */
export function distinctAttachments(
  items: readonly MediaAttachment[],
  mediaUrls: readonly string[],
  workspaceDir: string | undefined,
): MediaAttachment[] {
  const seen = new Set(mediaUrls.map((ref) => mediaIdentity(ref, workspaceDir)));
  return items.filter((item) => {
    const names = attachmentIdentities(item, workspaceDir);
    if (names.some((name) => seen.has(name))) return false;
    for (const name of names) seen.add(name);
    return true;
  });
}
