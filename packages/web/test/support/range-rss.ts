/**
 * Run alone in a fresh process (`tsx range-rss.ts <stream|whole>`): a 50 MB video in a
 * disk-backed store, 4 parallel 100-byte Range requests through the inbox; prints the peak
 * RSS growth over the process before the requests, in MiB, as JSON.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWebInbox } from "../../src/index.js";
import { diskStore } from "./disk-store.js";

const dir = mkdtempSync(join(tmpdir(), "outbox-range-rss-"));
try {
  const store = diskStore(dir, { whole: process.argv[2] === "whole" });
  const data = new Uint8Array(50 * 1024 * 1024).fill(7);
  const sha256 = createHash("sha256").update(data).digest("hex");
  await store.putMedia("room", sha256, { mimeType: "video/mp4", fileName: "big.mp4", data });
  const inbox = await startWebInbox({ auth: { secret: "r".repeat(40) }, store });
  const url = `${inbox.url}/c/room/media/${sha256}`;
  const headers = { Authorization: `Bearer ${inbox.tokenFor("room")}`, Range: "bytes=1000-1099" };
  const get = async () => (await fetch(url, { headers })).arrayBuffer();
  await get(); // code paths warm
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const bodies = await Promise.all([get(), get(), get(), get()]);
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  await inbox.close();
  const mib = (peak - before) / 2 ** 20;
  console.log(
    JSON.stringify({
      mode: process.argv[2],
      growthMiB: Math.round(mib * 10) / 10,
      bytes: bodies.map((b) => b.byteLength),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
