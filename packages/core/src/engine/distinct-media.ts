/**
 * Media identity after loading (protocol.md, "Media identity"): what the loader learnt (a
 * file's real path, a URL's checked form, the bytes) decides whether two loaded items, or
 * an item and one delivered earlier in the turn, are the same media.
 */
import { createHash } from "node:crypto";
import type { LoadedMedia } from "../media/types.js";
import { mediaIdentity } from "../parse/media-identity.js";
import type { MediaAttachment, ReplyPayload } from "../payload/types.js";
import type { MediaInput } from "../plan/types.js";
import { createMediaMemory, HEAD_BYTES, type KnownMedia, type MediaMemory } from "./media-memory.js";

/**
 * The loaded inputs of `payload` (in the order `loadMediaInputs` gives them) without the
 * items that repeat an earlier one or one in `memory`: the same real path, the same URL,
 * the same `sourceUrl`, or the same bytes (a file or inline data against a file or inline
 * data; remote bytes are not fetched to compare). The first occurrence keeps its place.
 * Returns the inputs kept and a `remember` that adds them to `memory`.
 */
export async function distinctMedia(
  inputs: MediaInput[],
  payload: ReplyPayload,
  memory: MediaMemory | undefined,
): Promise<{ inputs: MediaInput[]; remember: () => void }> {
  const sources: Array<string | MediaAttachment> = [...payload.mediaUrls, ...payload.media];
  const seen = createMediaMemory();
  const kept: MediaInput[] = [];
  const known: KnownMedia[] = [];
  for (const [index, input] of inputs.entries()) {
    if (input.status !== "loaded") {
      kept.push(input);
      continue;
    }
    const item = knownOf(input.media, sources[index]);
    if ((await seen.has(item)) || (await memory?.has(item))) continue;
    seen.add(item);
    known.push(item);
    kept.push(input);
  }
  const remember = (): void => {
    for (const item of known) memory?.add(item);
  };
  return { inputs: kept, remember };
}

function knownOf(media: LoadedMedia, source: string | MediaAttachment | undefined): KnownMedia {
  const sourceUrl = typeof source === "object" ? source.sourceUrl?.trim() : undefined;
  const names = sourceUrl ? [mediaIdentity(sourceUrl)] : [];
  if (media.source.type === "url")
    return { names: [...names, mediaIdentity(media.source.url)], size: media.size, digest: undefined };
  if (media.source.type === "file") names.push(media.source.path);
  const digests = new Map<boolean, Promise<string | undefined>>();
  return {
    names,
    size: media.size,
    digest: (head = false) => {
      let digest = digests.get(head);
      if (digest === undefined) {
        digest = sha256(media.open(), head ? HEAD_BYTES : Number.POSITIVE_INFINITY).catch(() => undefined);
        digests.set(head, digest);
      }
      return digest;
    },
  };
}

/** The sha256 of the first `limit` bytes of `chunks` (it stops reading there). */
async function sha256(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<string> {
  const hash = createHash("sha256");
  let read = 0;
  for await (const chunk of chunks) {
    const take = Math.min(chunk.byteLength, limit - read);
    hash.update(take === chunk.byteLength ? chunk : chunk.subarray(0, take));
    read += take;
    if (read >= limit) break;
  }
  return hash.digest("hex");
}
