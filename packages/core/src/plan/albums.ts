import type { AlbumCapabilities } from "../adapter/types.js";
import type { MediaKind } from "../media/types.js";

/** A run of consecutive items, by their index in the input. */
export type Grouping = Array<{ album: boolean; members: number[] }>;

/**
 * Group consecutive items into albums: a run of items whose kinds all fit one of the
 * album `groups` becomes albums when it has at least `minItems`; a run longer than
 * `maxItems` is split into the fewest albums, as even as possible (11 → 6 + 5). Items
 * that cannot be grouped (`null` kind: voice notes, links, failures) stay alone.
 */
export function groupAlbums(kinds: Array<MediaKind | null>, rules: AlbumCapabilities | null): Grouping {
  const groups: Grouping = [];
  let run: number[] = [];
  let open: MediaKind[][] = [];
  const close = (): void => {
    if (run.length > 0) groups.push(...splitRun(run, rules as AlbumCapabilities));
    run = [];
    open = [];
  };
  kinds.forEach((kind, index) => {
    if (rules === null || kind === null) {
      close();
      groups.push({ album: false, members: [index] });
      return;
    }
    const still = (run.length === 0 ? rules.groups : open).filter((group) => group.includes(kind));
    if (still.length === 0) {
      close();
      open = rules.groups.filter((group) => group.includes(kind));
    } else open = still;
    if (open.length === 0) {
      groups.push({ album: false, members: [index] });
      return;
    }
    run.push(index);
  });
  close();
  return groups;
}

function splitRun(run: number[], rules: AlbumCapabilities): Grouping {
  if (run.length < rules.minItems || run.length < 2)
    return run.map((index) => ({ album: false, members: [index] }));
  const count = Math.ceil(run.length / rules.maxItems);
  const out: Grouping = [];
  let start = 0;
  for (let i = 0; i < count; i += 1) {
    const size = Math.floor(run.length / count) + (i < run.length % count ? 1 : 0);
    const members = run.slice(start, start + size);
    start += size;
    if (members.length >= rules.minItems && members.length >= 2) out.push({ album: true, members });
    else out.push(...members.map((index) => ({ album: false, members: [index] })));
  }
  return out;
}
