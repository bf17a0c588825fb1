/**
 * What a turn remembers of the media it delivered. A leaf, apart from how loaded media gets
 * its identity (`distinct-media.ts`), so that the adapter types can name it without
 * importing the plan back through the engine.
 */

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
export const HEAD_BYTES = 64 * 1024;

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

async function sameDigest(
  mine: NonNullable<KnownMedia["digest"]>,
  other: NonNullable<KnownMedia["digest"]>,
  head: boolean,
): Promise<boolean> {
  const digest = await mine(head);
  return digest !== undefined && digest === (await other(head));
}
