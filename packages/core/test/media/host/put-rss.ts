/**
 * Run alone in a fresh process (`node --expose-gc tsx put-rss.ts <stream|buffered>`): puts a
 * generated 50 MiB stream on a self-hosted media host with a directory store (`buffered`
 * first collects the stream into one buffer, as a host that buffers would), then downloads
 * it through the host on 127.0.0.1, then times 200 small Range requests. Prints, as JSON,
 * for each phase the peak growth over the process before it (MiB) of RSS and of what is
 * held (V8 heap plus buffers, garbage collected every 4 MiB put or read), the
 * stored size and the timings.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSelfHostedMedia, startMediaHost } from "../../../src/index.js";

const CHUNK = 64 * 1024;
const TOTAL = 50 * 1024 * 1024;
const GC_EVERY = 4 * 1024 * 1024;

/** Fresh chunks, collecting garbage every 4 MiB: the growth left is what is held. */
async function* generated(): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < TOTAL; sent += CHUNK) {
    if (sent % GC_EVERY === 0) globalThis.gc?.();
    yield Buffer.alloc(CHUNK, sent & 0xff);
  }
}

/** RSS and what is held (V8 heap plus buffers), in bytes. */
function usage(): [number, number] {
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  return [rss, heapUsed + arrayBuffers];
}

const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Peak growth in MiB of RSS and of what is held while `work` runs (sampled every 2 ms), and its duration in ms. */
async function measured<T>(work: () => Promise<T>) {
  globalThis.gc?.();
  const before = usage();
  const peak = [...before];
  const sample = () => {
    for (const [i, value] of usage().entries()) peak[i] = Math.max(peak[i] ?? 0, value);
  };
  const sampler = setInterval(sample, 2);
  const started = performance.now();
  const value = await work();
  const ms = Math.round(performance.now() - started);
  sample();
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
      if (Math.floor(bytes / GC_EVERY) !== Math.floor((bytes + chunk.byteLength) / GC_EVERY))
        globalThis.gc?.();
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
