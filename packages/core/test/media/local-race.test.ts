/**
 * The check-then-open race on local files: a parent directory swapped for a symlink after
 * the containment check and before the open. `realpath` is wrapped (a test seam on the
 * module the loader imports) so the swap happens deterministically in that window.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadMedia, MediaError } from "../../src/index.js";
import { png } from "./helpers/samples.js";

const seam = vi.hoisted(() => ({ afterRealpath: undefined as ((path: string) => void) | undefined }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const realpath = async (path: string) => {
    const real = await actual.realpath(path);
    seam.afterRealpath?.(String(path));
    return real;
  };
  return { ...actual, realpath, default: { ...actual, realpath } };
});

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "outbox-media-race-"));
  root = join(base, "root");
  mkdirSync(join(root, "dir"), { recursive: true });
  mkdirSync(join(base, "outside"));
  writeFileSync(join(root, "dir", "photo.png"), png());
  writeFileSync(join(base, "outside", "photo.png"), png(7, 7));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("local media: a directory swapped between check and open", () => {
  it.runIf(process.platform === "linux")(
    "refuses the file the descriptor really points at when it lies outside the roots",
    async () => {
      const target = join(root, "dir", "photo.png");
      let swapped = false;
      seam.afterRealpath = (path) => {
        if (path !== target || swapped) return;
        swapped = true;
        renameSync(join(root, "dir"), join(root, "dir-checked"));
        symlinkSync(join(base, "outside"), join(root, "dir"));
      };
      try {
        const error = await loadMedia(target, { workspaceDir: root, localRoots: [root] }).catch(
          (caught: unknown) => caught,
        );
        expect(swapped).toBe(true);
        expect(error).toBeInstanceOf(MediaError);
        expect((error as MediaError).reason).toBe("blocked");
        expect((error as MediaError).message).toMatch(/outside the allowed directories/);
      } finally {
        seam.afterRealpath = undefined;
      }
    },
  );
});
