/**
 * Journals outlive the process that wrote them: the fixtures under fixtures/journals were
 * written by earlier releases (the file store's file as it was on disk; the Redis store's
 * string, saved write-ahead while part 2 was being sent), for the payload below split into
 * four parts with part 1 refused by the platform: `file-store.json` and `redis-store.json` by
 * the release before journals had a `version`, the `-v1` ones by the first release writing
 * version 1.
 */
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryJournal, DeliveryStore } from "../../src/adapter/types.js";
import { createFileStore } from "../../src/engine/file-store.js";
import { JOURNAL_VERSION } from "../../src/engine/journal-version.js";
import { createMemoryStore } from "../../src/engine/memory-store.js";
import { StoreError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

const text = "one one\n\ntwo two\n\nthree three\n\nfour four";
const small = { text: { maxLength: 12, format: "x" } };
const to = { to: "chat" };
const fixtures = join(import.meta.dirname, "../fixtures/journals");
const fixture = async (name: string): Promise<DeliveryJournal> =>
  JSON.parse(await readFile(join(fixtures, name), "utf8")) as DeliveryJournal;
const sentTexts = (h: ReturnType<typeof harness>) =>
  h.transport.delivered().map((call) => (call.op.type === "text" ? call.op.text.text : call.op.type));

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("journal version", () => {
  it.each([
    ["before versions", "file-store.json", undefined],
    ["as version 1", "file-store-v1.json", 1],
  ])(
    "resumes a file-store journal written %s: sends only the missing part, then stamps the version",
    async (_, name, version) => {
      expect((await fixture(name)).version).toBe(version);
      const dir = await mkdtemp(join(tmpdir(), "outbox-journal-"));
      dirs.push(dir);
      const file = join(dir, `${createHash("sha256").update("file-key").digest("hex")}.json`);
      await copyFile(join(fixtures, name), file);
      const h = harness(small, { store: createFileStore(dir) });
      const receipt = await h.send({ text }, to, { idempotencyKey: "file-key" });
      expect(sentTexts(h)).toEqual(["two two"]);
      expect(receipt.ok).toBe(true);
      expect(receipt.messages.map((m) => [m.part, m.id])).toEqual([
        [0, "m1"],
        [1, "m1"],
        [2, "m2"],
        [3, "m3"],
      ]);
      expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({
        version: JOURNAL_VERSION,
        deliveredParts: [0, 1, 2, 3],
      });
      expect((await h.send({ text }, to, { idempotencyKey: "file-key" })).ok).toBe(true);
      expect(h.transport.calls).toHaveLength(1);
    },
  );

  it.each([
    ["before versions", "redis-store.json", undefined],
    ["as version 1", "redis-store-v1.json", 1],
  ])(
    "resumes a write-ahead (Redis-format) journal written %s: the part being sent stays ambiguous",
    async (_, name, version) => {
      const saved = await fixture(name);
      expect(saved).toMatchObject({ sending: 2, deliveredParts: [0] });
      expect(saved.version).toBe(version);
      const memory = createMemoryStore();
      await memory.set("redis-key", saved);
      const store: DeliveryStore = { ...memory, writeAhead: true };
      const h = harness(small, { store });
      const receipt = await h.send({ text }, to, { idempotencyKey: "redis-key" });
      expect(sentTexts(h)).toEqual(["two two", "four four"]);
      expect(receipt.messages.map((m) => m.part)).toEqual([0, 1, 3]);
      expect(receipt.failures.map((f) => [f.part, f.error.code, f.ambiguous])).toEqual([
        [2, "transport_error", true],
      ]);
      expect(await memory.get("redis-key")).toMatchObject({ version: JOURNAL_VERSION, ambiguousParts: [2] });
    },
  );

  it.each([
    ["a newer release's", JOURNAL_VERSION + 1],
    ["a non-numeric", "1"],
    ["a fractional", 1.5],
  ])("refuses %s version with a StoreError before any call", async (_, version) => {
    const memory = createMemoryStore();
    await memory.set("k", { ...(await fixture("file-store.json")), version } as DeliveryJournal);
    const h = harness(small, { store: memory });
    const attempt = h.send({ text }, to, { idempotencyKey: "k" });
    await expect(attempt).rejects.toBeInstanceOf(StoreError);
    await expect(attempt).rejects.toThrow(/"k" has version .*reads versions 1 to 1/);
    expect(h.transport.calls).toHaveLength(0);
  });

  it("writes the version on a fresh journal", async () => {
    const memory = createMemoryStore();
    await harness(small, { store: memory }).send({ text }, to, { idempotencyKey: "new" });
    expect((await memory.get("new"))?.version).toBe(JOURNAL_VERSION);
  });
});
