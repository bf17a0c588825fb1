/**
 * A {@link MediaStore} on a directory: `<key>.json` (the description, written first, so a
 * put cut short by a crash is still found and swept), `<key>.part` while the bytes arrive,
 * renamed to `<key>` once complete. Nothing outside the directory is ever named: keys are
 * checked against {@link MEDIA_KEY} before they become a file name, and files are opened
 * without following a symlink.
 */
import { constants } from "node:fs";
import { mkdir, open, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { MEDIA_KEY } from "./signed-link.js";
import type { ByteRange, HostedItem, HostedItemInfo, MediaStore } from "./types.js";

const DESCRIPTION = ".json";
const PARTIAL = ".part";

/** The path of `key` plus `suffix` inside `root`; throws for anything that is not a key. */
function pathOf(root: string, key: string, suffix = ""): string {
  if (!MEDIA_KEY.test(key)) throw new RangeError("not a media host key");
  return join(root, `${key}${suffix}`);
}

/** A description as stored, or `undefined` when it is missing or not one. */
function parseInfo(text: string): HostedItemInfo | undefined {
  const value = JSON.parse(text) as Partial<HostedItemInfo>;
  return typeof value.mimeType === "string" &&
    typeof value.fileName === "string" &&
    typeof value.expiresAt === "number"
    ? { mimeType: value.mimeType, fileName: value.fileName, expiresAt: value.expiresAt }
    : undefined;
}

async function readInfo(root: string, key: string): Promise<HostedItemInfo | undefined> {
  try {
    return parseInfo(await readFile(pathOf(root, key, DESCRIPTION), "utf8"));
  } catch {
    return undefined;
  }
}

/** Opens a regular file for reading, never through a symlink. */
async function openRegular(path: string) {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  const stat = await handle.stat();
  if (stat.isFile()) return { handle, size: stat.size };
  await handle.close();
  throw new Error("not a regular file");
}

/**
 * Keep hosted media in `directory` (created when missing). Give the host a directory of
 * its own: the sweeper deletes what it finds there once expired.
 */
export function createDirectoryMediaStore(directory: string): MediaStore {
  const root = resolve(directory);
  const ready = mkdir(root, { recursive: true, mode: 0o700 });
  // A failure is the first put's to report; a store never used (a host closed right after it
  // started, its directory removed meanwhile) must not leave an unhandled rejection behind.
  ready.catch(() => undefined);
  return {
    async put(key: string, info: HostedItemInfo, bytes: AsyncIterable<Uint8Array>) {
      await ready;
      await writeFile(pathOf(root, key, DESCRIPTION), JSON.stringify(info), { flag: "wx", mode: 0o600 });
      const partial = pathOf(root, key, PARTIAL);
      const file = await open(partial, "wx", 0o600);
      try {
        await pipeline(bytes, file.createWriteStream());
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      await rename(partial, pathOf(root, key));
    },
    async get(key: string): Promise<HostedItem | undefined> {
      const info = await readInfo(root, key);
      if (info === undefined) return undefined;
      try {
        const { handle, size } = await openRegular(pathOf(root, key));
        await handle.close();
        return { ...info, size };
      } catch {
        return undefined;
      }
    },
    async *read(key: string, range?: ByteRange) {
      const { handle } = await openRegular(pathOf(root, key));
      // The stream closes the handle when it ends or is destroyed.
      yield* handle.createReadStream(range === undefined ? {} : { start: range.start, end: range.end });
    },
    async delete(key: string) {
      for (const suffix of ["", PARTIAL, DESCRIPTION]) await rm(pathOf(root, key, suffix), { force: true });
    },
    async *list() {
      await ready;
      for (const name of await readdir(root)) {
        const key = name.slice(0, -DESCRIPTION.length);
        if (!name.endsWith(DESCRIPTION) || !MEDIA_KEY.test(key)) continue;
        const info = await readInfo(root, key);
        // A description that cannot be read is left to its owner rather than guessed at.
        if (info !== undefined) yield { key, expiresAt: info.expiresAt };
      }
    },
  };
}
