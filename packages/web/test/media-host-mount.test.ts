import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSelfHostedMedia, type MediaToHost } from "@outbox/core";
import { afterEach, describe, expect, it } from "vitest";
import { createWebInboxApp } from "../src/index.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const clip: MediaToHost = {
  mimeType: "audio/ogg",
  fileName: "note.ogg",
  async *open() {
    yield Buffer.from("OggS and then some");
  },
};

describe("the self-hosted media host mounted in the inbox's Hono app", () => {
  it("serves its links under the mount path, and nothing else there", async () => {
    dir = mkdtempSync(join(tmpdir(), "outbox-web-media-host-"));
    const media = createSelfHostedMedia({
      publicUrl: "https://bot.example/media/",
      secret: "m".repeat(32),
      store: dir,
      sweepEveryMs: 0,
    });
    const inbox = createWebInboxApp({ auth: { secret: "w".repeat(40) } });
    inbox.app.mount("/media", media.fetch);
    const { url } = await media.put(clip);
    const response = await inbox.app.fetch(new Request(url, { headers: { Range: "bytes=0-3" } }));
    expect(response.status).toBe(206);
    expect(await response.text()).toBe("OggS");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const sig = new URL(url).searchParams.get("sig") ?? "";
    const other = `${sig.startsWith("A") ? "B" : "A"}${sig.slice(1)}`;
    const forged = await inbox.app.fetch(new Request(url.replace(sig, other)));
    expect(forged.status).toBe(403);
    expect((await inbox.app.fetch(new Request("https://bot.example/media/"))).status).toBe(404);
  });
});
