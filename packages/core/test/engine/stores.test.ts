import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryJournal } from "../../src/adapter/types.js";
import { createFileStore } from "../../src/engine/file-store.js";
import { createMemoryStore } from "../../src/engine/memory-store.js";

const journal = (parts: number[]): DeliveryJournal => ({
  fingerprint: "f",
  messages: parts.map((part) => ({ id: `m${part}`, kind: "text", part })),
  degraded: [],
  deliveredParts: parts,
});

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
