import type { Capabilities } from "../adapter/types.js";
import { MediaError, OutboxError } from "../errors/errors.js";
import { loadMedia } from "../media/index.js";
import type { MediaPolicy } from "../media/types.js";
import type { MediaAttachment, RefusedMedia, ReplyPayload } from "../payload/types.js";
import type { MediaInput } from "../plan/types.js";

/**
 * Largest item the platform takes for any kind, by any way it has (uploaded bytes, a URL
 * it fetches, a hosted link): the loader's cap before the kind is known. A way the policy
 * does not open (no host) counts too, so the plan can say which option would carry it.
 */
function largestItem(capabilities: Capabilities): number {
  const { maxBytes, byUrl, hostedLinks, uploads } = capabilities.media;
  const ways = [uploads === false ? undefined : maxBytes, byUrl, hostedLinks];
  return Math.max(
    0,
    ...ways
      .flatMap((limits) => (limits === undefined ? [] : Object.values(limits)))
      .filter((v) => v !== undefined),
  );
}

/** The loader's policy for a send: `policy` with `maxBytes` lowered to the platform's largest item. */
export function uploadPolicy(
  capabilities: Capabilities,
  policy: MediaPolicy | undefined,
  signal: AbortSignal | undefined,
): MediaPolicy {
  const maxBytes = Math.min(policy?.maxBytes ?? Number.POSITIVE_INFINITY, largestItem(capabilities));
  return { ...policy, maxBytes, ...(signal === undefined ? {} : { signal }) };
}

/** Whether a payload holds any media reference (loaded or refused). */
export function holdsMedia(payload: ReplyPayload): boolean {
  return payload.mediaUrls.length > 0 || payload.media.length > 0 || (payload.refusedMedia?.length ?? 0) > 0;
}

/**
 * Load every media reference of a payload (URLs and paths first, then inline
 * attachments), concurrently, keeping order. The loader's `maxBytes` is lowered to the
 * platform's largest upload limit (the per-kind limits apply in the plan, once the kind
 * is sniffed). An https URL refused as too large becomes a link; any other refusal is a
 * failed input, never an exception. References the parser refused on `MEDIA:` lines come
 * last, each a failed input (`media_blocked`), so the receipt reports them.
 */
export async function loadMediaInputs(
  payload: ReplyPayload,
  capabilities: Capabilities,
  policy: MediaPolicy | undefined,
  signal: AbortSignal | undefined,
): Promise<MediaInput[]> {
  // Most replies are text alone: nothing to load, no policy to work out.
  if (!holdsMedia(payload)) return [];
  const effective = uploadPolicy(capabilities, policy, signal);
  const refs: Array<string | MediaAttachment> = [...payload.mediaUrls, ...payload.media];
  const loaded = await Promise.all(refs.map((ref) => loadOne(ref, effective)));
  return [...loaded, ...(payload.refusedMedia ?? []).map(refusedInput)];
}

/** A failed input for a reference the parser refused. */
export function refusedInput(refusal: RefusedMedia): MediaInput {
  return {
    status: "failed",
    error: new MediaError(
      "blocked",
      `Media reference ${JSON.stringify(refusal.reference)} on a MEDIA: line was refused: ${refusal.reason}. Name a file inside MediaPolicy.localRoots (./file.png, /abs/path.png) or a public https URL.`,
      { ref: refusal.reference },
    ),
  };
}

/** Load one reference; a refusal is a failed input (or a link, for an https URL too large to upload). */
export async function loadOne(ref: string | MediaAttachment, policy: MediaPolicy): Promise<MediaInput> {
  try {
    return { status: "loaded", media: await loadMedia(ref, policy) };
  } catch (error) {
    policy.signal?.throwIfAborted();
    if (
      error instanceof MediaError &&
      error.reason === "too-large" &&
      typeof ref === "string" &&
      /^https:/i.test(ref.trim())
    )
      return { status: "link", url: ref.trim(), reason: error.message };
    if (error instanceof OutboxError) return { status: "failed", error };
    const label = typeof ref === "string" ? ref : (ref.fileName ?? ref.mimeType);
    return {
      status: "failed",
      error: new MediaError("fetch-failed", `could not load ${label}`, {
        cause: error,
        ...(typeof ref === "string" ? { ref } : {}),
      }),
    };
  }
}
