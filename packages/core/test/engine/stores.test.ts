import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DeliveryJournal } from "../../src/adapter/types.js";
import { createFileStore } from "../../src/engine/file-store.js";
import { createMemoryStore } from "../../src/engine/memory-store.js";

/**
 * A crash in the middle of a write: while `crashing` is set, `writeFile` puts the first
 * half of the data on disk and then fails, as a process killed mid-write leaves a file.
 */
const crash = vi.hoisted(() => ({ crashing: false }));
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...real,
    writeFile: (async (file: string, data: string, options?: object) => {
      if (!crash.crashing) return real.writeFile(file, data, options);
      await real.writeFile(file, data.slice(0, Math.floor(data.length / 2)));
      throw new Error("killed mid-write");
    }) as typeof real.writeFile,
  };
});
afterEach(() => {
  crash.crashing = false;
});

const journal = (parts: number[]): DeliveryJournal => ({
  fingerprint: "f",
  messages: parts.map((part) => ({ id: `m${part}`, kind: "text", part })),
  degraded: [],
  deliveredParts: parts,
});

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("createMemoryStore", () => {
  it("returns copies, so callers cannot change what is stored", async () => {
    const store = createMemoryStore();
    expect(await store.get("k")).toBeUndefined();
    const saved = journal([0]);
    await store.set("k", saved);
    saved.deliveredParts.push(9);
    const read = await store.get("k");
    expect(read?.deliveredParts).toEqual([0]);
    read?.deliveredParts.push(7);
    expect((await store.get("k"))?.deliveredParts).toEqual([0]);
  });
});

describe("createFileStore", () => {
  it("creates its directory, keeps one file per key, and reads back across instances", async () => {
    const dir = join(await mkdtemp(join(tmpdir(), "outbox-store-")), "nested");
    dirs.push(dir);
    const store = createFileStore(dir);
    expect(await store.get("key/with:odd chars")).toBeUndefined();
    await store.set("key/with:odd chars", journal([0]));
    await store.set("key/with:odd chars", journal([0, 1]));
    await store.set("other", journal([2]));
    const files = await readdir(dir);
    expect(files).toHaveLength(2);
    expect(files.every((file) => /^[0-9a-f]{64}\.json$/.test(file))).toBe(true);
    const again = createFileStore(dir);
    expect((await again.get("key/with:odd chars"))?.deliveredParts).toEqual([0, 1]);
    expect(JSON.parse(await readFile(join(dir, files[0] as string), "utf8"))).toHaveProperty(
      "fingerprint",
      "f",
    );
  });

  it("never leaves a torn journal: a write killed midway leaves the previous one readable", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outbox-store-"));
    dirs.push(dir);
    const store = createFileStore(dir);
    await store.set("k", journal([0, 1]));
    crash.crashing = true;
    await expect(store.set("k", journal([0, 1, 2, 3, 4, 5, 6, 7]))).rejects.toThrow("killed mid-write");
    crash.crashing = false;
    // The half-written bytes exist somewhere (the write did start) ...
    const files = await readdir(dir);
    const contents = await Promise.all(files.map((file) => readFile(join(dir, file), "utf8")));
    expect(
      contents.filter((text) => !isJson(text)),
      "a torn file was written",
    ).toHaveLength(1);
    // ... but not where the journal is read from.
    expect(await store.get("k")).toEqual(journal([0, 1]));
    expect(await createFileStore(dir).get("k"), "after a restart").toEqual(journal([0, 1]));
  });

  it("never leaves a torn file under concurrent writes of one key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outbox-store-"));
    dirs.push(dir);
    const store = createFileStore(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.set("k", journal(Array.from({ length: i + 1 }, (_, p) => p))),
      ),
    );
    const read = await store.get("k");
    expect(read?.deliveredParts.length).toBeGreaterThan(0);
    expect((await readdir(dir)).filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });
});
