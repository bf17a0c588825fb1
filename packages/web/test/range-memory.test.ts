import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createWebAdapter, startWebInbox, type WebInbox } from "../src/index.js";
import { diskStore } from "./support/disk-store.js";

const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const script = fileURLToPath(new URL("support/range-rss.ts", import.meta.url));

/** Peak RSS growth (MiB) of 4 parallel 100-byte Range requests on a 50 MB item, in a fresh process. */
function rangeRss(mode: "stream" | "whole"): { growthMiB: number; bytes: number[] } {
  const out = execFileSync(process.execPath, [tsx, "--conditions=source", script, mode], {
    encoding: "utf8",
  });
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
}

let inbox: WebInbox | undefined;
let dir: string | undefined;
afterEach(async () => {
  await inbox?.close();
  inbox = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("a store that streams media", () => {
  it("serves whole items and ranges from the store's stream, asking only for the range", async () => {
    dir = mkdtempSync(join(tmpdir(), "outbox-disk-store-"));
    const store = diskStore(dir);
    inbox = await startWebInbox({ auth: { secret: "d".repeat(40) }, store });
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const receipt = await createWebAdapter({ store }).send(
      { text: "clip", media: [{ mimeType: "application/octet-stream", data: bytes, fileName: "data.bin" }] },
      { to: "room" },
    );
    expect(receipt.ok).toBe(true);
    const [event] = (await store.list("room")).slice(-1);
    const sha256 = event?.message.media?.[0]?.sha256 as string;
    const url = `${inbox.url}/c/room/media/${sha256}`;
    const auth = { Authorization: `Bearer ${inbox.tokenFor("room")}` };
    const whole = await fetch(url, { headers: auth });
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(bytes);
    const part = await fetch(url, { headers: { ...auth, Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    expect(store.opened).toEqual([undefined, { start: 100, end: 199 }]);
  });

  it("4 parallel 100-byte Range requests on a 50 MB item keep RSS growth small", { timeout: 120_000 }, () => {
    const streamed = rangeRss("stream");
    expect(streamed.bytes).toEqual([100, 100, 100, 100]);
    const whole = rangeRss("whole");
    console.log(
      `RSS growth, 4 parallel Range requests on 50 MB: streamed ${streamed.growthMiB} MiB, read whole ${whole.growthMiB} MiB`,
    );
    expect(streamed.growthMiB).toBeLessThan(32);
  });
});
