import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// tsx as a loader of this very process (its CLI would run the script in a child without `--expose-gc`).
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href;
const script = fileURLToPath(new URL("put-rss.ts", import.meta.url));

interface Figures {
  stored: number;
  putRssMiB: number;
  putHeldMiB: number;
  served: number;
  serveRssMiB: number;
  serveHeldMiB: number;
}

/** The figures of put-rss.ts in a fresh process. */
function run(mode: "stream" | "buffered"): Figures {
  const out = execFileSync(
    process.execPath,
    ["--expose-gc", "--conditions=source", "--import", tsx, script, mode],
    { encoding: "utf8" },
  );
  return JSON.parse(out.trim().split("\n").at(-1) ?? "{}");
}

describe("self-hosted media: memory", () => {
  it("a 50 MiB stream is stored and served with bounded memory", { timeout: 180_000 }, () => {
    const streamed = run("stream");
    const buffered = run("buffered");
    console.log(
      `self-hosted media, 50 MiB: streamed ${JSON.stringify(streamed)}; buffered ${JSON.stringify(buffered)}`,
    );
    expect(streamed.stored).toBe(50 * 1024 * 1024);
    expect(streamed.served).toBe(50 * 1024 * 1024);
    // The measure sees a whole copy (the buffered run holds 50 MiB and more)...
    expect(buffered.putHeldMiB).toBeGreaterThan(50);
    // ...and the streamed put holds a few chunks; the download (server and client in this one
    // process, each with its own chunks in flight) well under half a copy. What is held is read
    // right after each collection, so garbage a loaded machine collects late does not count.
    // RSS grows more (freed chunks the allocator keeps, as with Node's own file streams).
    expect(streamed.putHeldMiB).toBeLessThan(12);
    expect(streamed.serveHeldMiB).toBeLessThan(25);
    expect(streamed.putRssMiB).toBeLessThan(48);
  });
});
