import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadMedia, type MediaPolicy } from "../../src/index.js";
import { drain } from "./helpers/harness.js";
import { jpeg, oggOpus, png } from "./helpers/samples.js";

let root: string;
let policy: MediaPolicy;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "outbox-media-local-"));
  mkdirSync(join(root, "out"));
  writeFileSync(join(root, "out", "chart.png"), png(1200, 800));
  writeFileSync(join(root, "photo"), jpeg(300, 200, 60_000));
  writeFileSync(join(root, "voice.opus"), oggOpus(7_250, 500_000));
  writeFileSync(join(root, "empty.txt"), "");
  symlinkSync(join(root, "out", "chart.png"), join(root, "link.png"));
  policy = { workspaceDir: root, maxBytes: 10_000_000 };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("loadMedia: local files", () => {
  it.each([
    ["workspace-relative", () => "out/chart.png"],
    ["./", () => "./out/chart.png"],
    ["absolute", () => join(root, "out", "chart.png")],
    ["file://", () => pathToFileURL(join(root, "out", "chart.png")).href],
    ["file://localhost", () => `file://localhost${join(root, "out", "chart.png")}`],
    ["a symlink inside the root", () => "link.png"],
  ])("loads a %s path", async (_form, ref) => {
    const media = await loadMedia(ref(), policy);
    expect(media).toMatchObject({ kind: "image", mimeType: "image/png", width: 1200, height: 800 });
    expect(media.source).toEqual({ type: "file", path: join(root, "out", "chart.png") });
  });

  it("expands ~/ to the home directory", async () => {
    vi.stubEnv("HOME", root);
    try {
      const media = await loadMedia("~/out/chart.png", { localRoots: [root] });
      expect(media.size).toBe(png().length);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("defaults the roots to the workspace directory", async () => {
    await expect(
      loadMedia(join(root, "out", "chart.png"), { workspaceDir: join(root, "out") }),
    ).resolves.toBeDefined();
    await expect(loadMedia(join(root, "photo"), { workspaceDir: join(root, "out") })).rejects.toMatchObject({
      reason: "blocked",
    });
  });

  it("sniffs a file without extension and finds the JPEG frame after large metadata", async () => {
    const media = await loadMedia("photo", policy);
    expect(media).toMatchObject({ mimeType: "image/jpeg", fileName: "photo.jpg", width: 300, height: 200 });
  });

  it("reads the OGG duration from the file's tail", async () => {
    const media = await loadMedia("voice.opus", policy);
    expect(media).toMatchObject({ kind: "audio", mimeType: "audio/ogg", durationMs: 7_250 });
  });

  it("re-reads the file on every open()", async () => {
    const media = await loadMedia("voice.opus", policy);
    const first = await drain(media.open());
    const second = await drain(media.open());
    expect(first.length).toBe(media.size);
    expect(second.equals(first)).toBe(true);
  });

  it("refuses on open() a file replaced after loading", async () => {
    writeFileSync(join(root, "swap.png"), png());
    const media = await loadMedia("swap.png", policy);
    writeFileSync(join(root, "other.png"), png());
    renameSync(join(root, "other.png"), join(root, "swap.png"));
    await expect(drain(media.open())).rejects.toMatchObject({ reason: "blocked" });
  });

  it("loads an empty file as an empty document", async () => {
    const media = await loadMedia("empty.txt", policy);
    expect(media).toMatchObject({ size: 0, mimeType: "text/plain", kind: "document" });
    expect((await drain(media.open())).length).toBe(0);
  });

  it("takes the declared type and name of a file attachment", async () => {
    const media = await loadMedia(
      { filePath: "out/chart.png", mimeType: "image/png", fileName: "Q3.png" },
      policy,
    );
    expect(media).toMatchObject({ fileName: "Q3.png", mimeType: "image/png" });
  });
});
