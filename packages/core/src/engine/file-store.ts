import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DeliveryJournal, DeliveryStore } from "../adapter/types.js";

/**
 * A journal store that survives a process restart: one JSON file per key (named by the
 * key's SHA-256) in `directory`, created on first use. Every write goes to a temporary
 * file that is then renamed over the old one, so a crash never leaves a torn journal.
 */
export function createFileStore(directory: string): DeliveryStore {
  let ready: Promise<unknown> | undefined;
  const fileOf = (key: string): string =>
    join(directory, `${createHash("sha256").update(key).digest("hex")}.json`);
  return {
    async get(key) {
      try {
        return JSON.parse(await readFile(fileOf(key), "utf8")) as DeliveryJournal;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
    async set(key, journal) {
      ready ??= mkdir(directory, { recursive: true });
      await ready;
      const file = fileOf(key);
      const temporary = `${file}.${randomUUID()}.tmp`;
      await writeFile(temporary, JSON.stringify(journal), { flush: true });
      await rename(temporary, file);
    },
  };
}
