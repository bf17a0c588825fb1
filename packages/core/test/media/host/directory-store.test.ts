import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createDirectoryMediaStore } from "../../../src/media/host/directory-store.js";

/** Resolves once no file system request of this process is pending, then one more turn. */
async function fsSettled(): Promise<void> {
  while (process.getActiveResourcesInfo().some((name) => name.startsWith("FSReq")))
    await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

describe("createDirectoryMediaStore", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("a directory it cannot create fails the first put, and nothing while it is unused", async () => {
    dir = await mkdtemp(join(tmpdir(), "outbox-store-test-"));
    const file = join(dir, "a-file");
    await writeFile(file, "");
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on("unhandledRejection", record);
    try {
      createDirectoryMediaStore(join(file, "unused"));
      await fsSettled();
      expect(unhandled, "rejections nobody handled").toEqual([]);
      const used = createDirectoryMediaStore(join(file, "used"));
      const info = { mimeType: "text/plain", size: 1, createdAt: 0, expiresAt: 1 };
      await expect(used.put("k", info as never, (async function* () {})())).rejects.toThrow(/ENOTDIR/);
    } finally {
      process.off("unhandledRejection", record);
    }
  });
});
