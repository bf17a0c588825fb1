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

/** One loaded item as identity sees it (what a {@link MediaMemory} holds). */
export interface KnownMedia {
  /** Its names: a file's real path, a URL's identity, an attachment's `sourceUrl` identity. */
  names: string[];
  /** Its size in bytes. */
  size: number;
  /**
   * The sha256 of its bytes, computed at most once (`undefined` when they cannot be read
   * again); absent when they are remote (never fetched only to compare). `head: true` hashes
   * only the first {@link HEAD_BYTES}, compared first so that two different files of one
   * size are told apart without reading either whole.
   */
  digest: ((head?: boolean) => Promise<string | undefined>) | undefined;
}

/** Bytes hashed to tell two same-size items apart before hashing them whole. */
const HEAD_BYTES = 64 * 1024;

/**
 * The media delivered so far in one turn, by identity after loading. Share one across the
 * sends of a turn through `SendOptions.mediaMemory` (`deliverAgentRun` does): media a send
 * finds in it is not delivered again, and the media of a send that delivered anything is
 * added to it. Create one with {@link createMediaMemory}.
 */
export interface MediaMemory {
  /** Whether `item` is media already remembered (same name, or same local bytes). */
  has(item: KnownMedia): Promise<boolean>;
  /** Remember `item`. */
  add(item: KnownMedia): void;
}

/** An empty {@link MediaMemory}, for the sends of one turn. */
export function createMediaMemory(): MediaMemory {
  const names = new Set<string>();
  const local: KnownMedia[] = [];
  return {
    async has(item) {
      if (item.names.some((name) => names.has(name))) return true;
      if (item.digest === undefined) return false;
      // Bytes are read to compare only when the sizes match, and whole only when the heads do.
      for (const other of local) {
        if (other.size !== item.size || other.digest === undefined) continue;
        if (!(await sameDigest(item.digest, other.digest, true))) continue;
        if (item.size <= HEAD_BYTES || (await sameDigest(item.digest, other.digest, false))) return true;
      }
      return false;
    },
    add(item) {
      for (const name of item.names) names.add(name);
      if (item.digest !== undefined) local.push(item);
    },
  };
}

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

async function sameDigest(
  mine: NonNullable<KnownMedia["digest"]>,
  other: NonNullable<KnownMedia["digest"]>,
  head: boolean,
): Promise<boolean> {
  const digest = await mine(head);
  return digest !== undefined && digest === (await other(head));
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
