/**
 * Run alone in a fresh process (`node --expose-gc tsx put-rss.ts <stream|buffered>`): puts a
 * generated 50 MiB stream on a self-hosted media host with a directory store (`buffered`
 * first collects the stream into one buffer, as a host that buffers would), then downloads
 * it through the host on 127.0.0.1, then times 200 small Range requests. Prints, as JSON,
 * for each phase the peak growth over the process before it (MiB) of RSS (sampled every
 * 2 ms) and of what is held (V8 heap plus buffers, read right after each collection, every
 * 4 MiB put or read: live data, not garbage a busy machine has not collected yet), the
 * stored size and the timings.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSelfHostedMedia, startMediaHost } from "../../../src/index.js";

const CHUNK = 64 * 1024;
const TOTAL = 50 * 1024 * 1024;
const GC_EVERY = 4 * 1024 * 1024;

/** RSS and what is held (V8 heap plus buffers), in bytes. */
function usage(): [number, number] {
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  return [rss, heapUsed + arrayBuffers];
}

/** The peaks of the phase being measured: [RSS, held]. */
let peak: number[] = [0, 0];

/** Collect garbage, then record what is held: the growth left after a collection is live. */
function collect(): void {
  globalThis.gc?.();
  peak[1] = Math.max(peak[1] ?? 0, usage()[1]);
}

/** Fresh chunks, collecting garbage every 4 MiB. */
async function* generated(): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < TOTAL; sent += CHUNK) {
    if (sent % GC_EVERY === 0) collect();
    yield Buffer.alloc(CHUNK, sent & 0xff);
  }
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Peak growth in MiB of RSS and of what is held while `work` runs, and its duration in ms. */
async function measured<T>(work: () => Promise<T>) {
  globalThis.gc?.();
  const before = usage();
  peak = [...before];
  const sample = () => {
    peak[0] = Math.max(peak[0] ?? 0, usage()[0]);
  };
  const sampler = setInterval(sample, 2);
  const started = performance.now();
  const value = await work();
  const ms = Math.round(performance.now() - started);
  sample();
  collect();
  clearInterval(sampler);
  const [rss = 0, held = 0] = peak.map((value, i) => value - (before[i] ?? 0));
  return { value, rssMiB: mib(rss), heldMiB: mib(held), ms };
}

const dir = mkdtempSync(join(tmpdir(), "outbox-put-rss-"));
try {
  const host = createSelfHostedMedia({
    publicUrl: "http://127.0.0.1/media/",
    secret: "r".repeat(32),
    store: join(dir, "store"),
    sweepEveryMs: 0,
  });
  const server = await startMediaHost(host);
  const local = (url: string) => `${server.url}${new URL(url).pathname}${new URL(url).search}`;
  const small = await host.put({
    mimeType: "video/mp4",
    fileName: "warm.mp4",
    async *open() {
      yield Buffer.alloc(1024, 1);
    },
  });
  await (await fetch(local(small.url))).arrayBuffer(); // code paths warm
  const mode = process.argv[2];
  const buffered = mode === "buffered";
  const put = await measured(async () => {
    let source: AsyncIterable<Uint8Array> = generated();
    if (buffered) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of source) chunks.push(chunk);
      const whole = Buffer.concat(chunks);
      collect();
      source = (async function* () {
        yield whole;
      })();
    }
    return host.put({ mimeType: "video/mp4", fileName: "big.mp4", size: TOTAL, open: () => source });
  });
  const serve = await measured(async () => {
    let bytes = 0;
    const response = await fetch(local(put.value.url));
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (Math.floor(bytes / GC_EVERY) !== Math.floor((bytes + chunk.byteLength) / GC_EVERY)) collect();
      bytes += chunk.byteLength;
    }
    return bytes;
  });
  const latencies: number[] = [];
  for (let i = 0; i < 200; i++) {
    const started = performance.now();
    await (await fetch(local(small.url), { headers: { Range: "bytes=0-99" } })).arrayBuffer();
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  await server.close();
  const round = (ms: number | undefined) => Math.round((ms ?? 0) * 100) / 100;
  console.log(
    JSON.stringify({
      mode,
      stored: statSync(join(dir, "store", put.value.key)).size,
      putRssMiB: put.rssMiB,
      putHeldMiB: put.heldMiB,
      putMs: put.ms,
      served: serve.value,
      serveRssMiB: serve.rssMiB,
      serveHeldMiB: serve.heldMiB,
      serveMs: serve.ms,
      rangeP50Ms: round(latencies[100]),
      rangeP95Ms: round(latencies[190]),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
