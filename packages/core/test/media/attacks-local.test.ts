/**
 * The attack battery, local and inline half: paths that climb or escape the roots,
 * non-regular files, oversized and mislabelled inline data.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMedia, MediaError, type MediaErrorReason, type MediaPolicy } from "../../src/index.js";
import { png } from "./helpers/samples.js";

let base: string;
let root: string;
let policy: MediaPolicy;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "outbox-media-attacks-"));
  root = join(base, "root");
  mkdirSync(join(root, "sub"), { recursive: true });
  writeFileSync(join(base, "outside.png"), png());
  writeFileSync(join(root, "inside.png"), png());
  symlinkSync(join(base, "outside.png"), join(root, "escape.png"));
  symlinkSync(base, join(root, "escape-dir"));
  symlinkSync("/etc/passwd", join(root, "passwd"));
  execFileSync("mkfifo", [join(root, "pipe.png")]);
  writeFileSync(join(root, "big.bin"), Buffer.alloc(5000));
  policy = { workspaceDir: root, localRoots: [root], maxBytes: 4096 };
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function refused(ref: Parameters<typeof loadMedia>[0], reason: MediaErrorReason, over?: MediaPolicy) {
  const error = await loadMedia(ref, { ...policy, ...over }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MediaError);
  expect((error as MediaError).reason).toBe(reason);
  return error as MediaError;
}

describe("attack battery: local paths", () => {
  const escapes: Array<[string, () => string]> = [
    ["a symlink to a file outside the roots", () => join(root, "escape.png")],
    ["a path through a symlinked directory", () => join(root, "escape-dir", "outside.png")],
    ["a symlink to /etc/passwd", () => "./passwd"],
    ["an absolute path outside the roots", () => join(base, "outside.png")],
    ["/etc/passwd", () => "/etc/passwd"],
    ["a file: URL outside the roots", () => `file://${join(base, "outside.png")}`],
  ];
  it.each(escapes)("refuses %s and names the allowed roots", async (_name, ref) => {
    const error = await refused(ref(), "blocked");
    expect(error.message).toContain(root);
  });

  const climbs = [
    "../outside.png",
    "sub/../../outside.png",
    "./sub/../inside.png",
    "sub/%2e%2e/%2e%2e/outside.png",
    "file:///tmp/../etc/passwd",
    "sub\\..\\..\\outside.png",
  ];
  it.each(climbs)("refuses the '..' path %s before resolving it", async (ref) => {
    const error = await refused(ref, "blocked");
    expect(error.message).toMatch(/'\.\.'/);
  });

  it.each([
    ["/dev/zero", "a device"],
    ["/dev/null", "a device"],
    ["/dev/urandom", "a device"],
  ])("refuses the device %s even inside an allowed root", async (ref, what) => {
    const error = await refused(ref, "blocked", { localRoots: ["/dev"] });
    expect(error.message).toContain(what);
  });

  it("refuses a FIFO without blocking on it", async () => {
    const error = await refused("pipe.png", "blocked");
    expect(error.message).toContain("a FIFO");
  });

  it.each(["sub", ".", "./sub/"])("refuses the directory %s", async (ref) => {
    const error = await refused(ref, "blocked");
    expect(error.message).toContain("a directory");
  });

  it("refuses another user's home (~user)", async () => {
    await refused("~root/.ssh/id_rsa", "blocked");
  });

  it("refuses a NUL byte", async () => {
    await refused("inside.png\0.txt", "blocked");
  });

  it("refuses a file: URL with a remote host", async () => {
    await refused("file://fileserver/share/a.png", "blocked");
  });

  it("refuses a file: URL with an encoded slash", async () => {
    await refused("file:///etc%2Fpasswd", "blocked");
  });

  it("reports a missing file inside the roots as not-found", async () => {
    await refused("missing.png", "not-found");
  });

  it("refuses a file larger than maxBytes", async () => {
    await refused("big.bin", "too-large");
  });
});

describe("attack battery: inline data", () => {
  const pngBase64 = png().toString("base64");

  it("refuses a PNG declared as audio/ogg (base64 attachment)", async () => {
    const error = await refused({ mimeType: "audio/ogg", base64: pngBase64 }, "unsupported-type");
    expect(error.message).toMatch(/audio\/ogg.*image\/png/);
  });

  it("refuses a PNG declared as audio/ogg (bytes)", async () => {
    await refused({ mimeType: "audio/ogg", data: png() }, "unsupported-type");
  });

  it("refuses a PNG declared as audio/ogg (data: URI)", async () => {
    await refused(`data:audio/ogg;base64,${pngBase64}`, "unsupported-type");
  });

  it("refuses a PNG file declared as video/mp4 (file attachment)", async () => {
    await refused({ mimeType: "video/mp4", filePath: "inside.png" }, "unsupported-type");
  });

  it("refuses base64 whose decoded length passes the cap, before decoding", async () => {
    const error = await refused({ mimeType: "image/png", base64: "A".repeat(8_000_000) }, "too-large");
    expect(error.message).toMatch(/4096 bytes/);
  });

  it("refuses a data: URI over the cap", async () => {
    await refused(`data:image/png;base64,${Buffer.alloc(5000).toString("base64")}`, "too-large");
  });

  it("refuses malformed base64", async () => {
    await refused({ mimeType: "image/png", base64: "iVBOR$$$" }, "unsupported-type");
  });

  it("refuses an attachment without bytes (sourceUrl is never fetched)", async () => {
    await refused({ mimeType: "image/png", sourceUrl: "https://public.example.com/a.png" }, "not-found");
  });
});
