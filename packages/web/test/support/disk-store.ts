/**
 * A store keeping media in files, as an integrator would over disk or an object store:
 * messages in memory (the memory store's), media bytes in `dir`, handed out as
 * `StreamedMedia` (a size and a ranged read), or, with `whole`, read whole into memory as a
 * `StoredMedia` (the only way before stores could stream).
 */
import { createReadStream } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createMemoryWebStore, type MediaRange, type WebMessageStore } from "../../src/index.js";

/** The store, and the ranges its streams were opened with. */
export function diskStore(
  dir: string,
  options: { whole?: boolean } = {},
): WebMessageStore & { opened: Array<MediaRange | undefined> } {
  const messages = createMemoryWebStore();
  const types = new Map<string, { mimeType: string; fileName: string }>();
  const grants = new Set<string>();
  const opened: Array<MediaRange | undefined> = [];
  return {
    ...messages,
    opened,
    async putMedia(conversation, sha256, media) {
      await writeFile(join(dir, sha256), media.data);
      types.set(sha256, { mimeType: media.mimeType, fileName: media.fileName });
      grants.add(`${conversation}/${sha256}`);
    },
    async getMedia(conversation, sha256) {
      const type = types.get(sha256);
      if (type === undefined || !grants.has(`${conversation}/${sha256}`)) return undefined;
      const path = join(dir, sha256);
      if (options.whole) return { ...type, data: await readFile(path) };
      const { size } = await stat(path);
      return {
        ...type,
        size,
        open(range?: MediaRange) {
          opened.push(range);
          return Readable.toWeb(createReadStream(path, range)) as ReadableStream<Uint8Array>;
        },
      };
    },
  };
}
