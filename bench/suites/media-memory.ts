/**
 * Bounded memory when streaming media: a 50 MB file goes through `loadMedia(...).open()`
 * into a sink (a running SHA-256), from a local file and from an https server on
 * 127.0.0.1 (with and without content-length), each in a fresh child process after a
 * warm-up. Reports the peak RSS growth over the RSS just before `loadMedia`, sampled on
 * every chunk and every 2 ms; once with V8's own GC timing and once with a forced GC every
 * 4 MB (what is actually retained). Two references stream the same bytes without Outbox
 * (fs.createReadStream; undici over TLS), and a 200 MB local file checks that memory does
 * not grow with the file. Goal: ≤ 20 MB, or no worse than the same transport without Outbox.
 *
 * Part of `pnpm bench` (suite `media`).
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { createServer } from "node:https";
import { createRequire } from "node:module";
import type { AddressInfo, LookupFunction } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadMedia, type MediaPolicy } from "@outbox/core";
import type { Metric, Suite } from "../support/metrics.js";
import { spawnSelf } from "../support/spawn-self.js";

const MB = 1024 * 1024;
const GOAL_MB = 20;
const fixtures = new URL("../../packages/core/test/fixtures/", import.meta.url);
const cert = readFileSync(new URL("media-tls.crt", fixtures));
const key = readFileSync(new URL("media-tls.key", fixtures));

/** undici, loaded the way core loads it (never undici's global module). */
type Dispatcher = NonNullable<MediaPolicy["dispatcher"]>;
type AgentClass = new (options: { connect: { ca: Buffer } }) => Dispatcher;
const requireFromCore = createRequire(
  fileURLToPath(new URL("../../packages/core/package.json", import.meta.url)),
);
const Agent = requireFromCore("undici/lib/dispatcher/agent.js") as AgentClass;
const request = requireFromCore("undici/lib/api/api-request.js") as (
  this: Dispatcher,
  options: { origin: string; path: string; method: "GET"; headers: Record<string, string> },
) => Promise<{ body: AsyncIterable<Uint8Array> }>;

/** One measured run. */
interface Run {
  /** Scenario, and whether a GC was forced every 4 MB. */
  name: string;
  /** Bytes streamed. */
  bytes: number;
  /** Peak RSS growth during load + streaming, in MB. */
  peakRssGrowthMb: number;
  /** Wall time in milliseconds. */
  ms: number;
}

/** What a scenario streams: the bytes and how many there should be. */
interface Source {
  size: number;
  stream: AsyncIterable<Uint8Array>;
}

/** Scenario name → file name and how the child gets a stream of it. */
const SCENARIOS: Record<string, { file: string; reference?: string }> = {
  "local file, 50 MB": { file: "big.bin" },
  "local file, 200 MB": { file: "huge.bin" },
  "https, content-length, 50 MB": { file: "big.bin" },
  "https, chunked (counted once at load), 50 MB": { file: "big.bin" },
  "reference: fs.createReadStream, no Outbox, 50 MB": { file: "big.bin" },
  "reference: undici over TLS, no Outbox, 50 MB": { file: "big.bin" },
  "reference: undici over TLS twice (like load + open), no Outbox, 50 MB": { file: "big.bin" },
};

/** Which reference a scenario is compared with (a body without length is read twice: at load and on open). */
function referenceOf(name: string): string {
  if (name.startsWith("https, chunked"))
    return "reference: undici over TLS twice (like load + open), no Outbox, 50 MB";
  return name.startsWith("https")
    ? "reference: undici over TLS, no Outbox, 50 MB"
    : "reference: fs.createReadStream, no Outbox, 50 MB";
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Writes a file of `size` bytes, 1 MB at a time (never held in memory whole). */
function writeBigFile(path: string, size: number): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(MB);
  for (let index = 0; index < size / MB; index += 1) {
    block.fill(index % 251);
    writeSync(fd, block);
  }
  closeSync(fd);
}

/** Child process: opens `file` the scenario's way. */
function opener(scenario: string, port: number, dir: string): (file: string) => Promise<Source> {
  const lookup = ((_host: string, _options: unknown, callback: (...args: unknown[]) => void) =>
    callback(null, [{ address: "127.0.0.1", family: 4 }])) as LookupFunction;
  const dispatcher = new Agent({ connect: { ca: cert } });
  const maxBytes = 300 * MB;
  const remote: MediaPolicy = {
    lookup,
    dispatcher,
    allowHosts: ["media.outbox.test"],
    maxBytes,
    timeoutMs: 60_000,
  };
  const viaCore = async (ref: string, policy: MediaPolicy): Promise<Source> => {
    const media = await loadMedia(ref, policy);
    return { size: media.size, stream: media.open() };
  };
  if (scenario.startsWith("local"))
    return (file) => viaCore(join(dir, file), { workspaceDir: dir, maxBytes });
  if (scenario.startsWith("https, chunked")) {
    return (file) => viaCore(`https://media.outbox.test:${port}/chunked/${file}`, remote);
  }
  if (scenario.startsWith("https"))
    return (file) => viaCore(`https://media.outbox.test:${port}/${file}`, remote);
  if (scenario.includes("createReadStream")) {
    return async (file) => ({
      size: statSync(join(dir, file)).size,
      stream: createReadStream(join(dir, file)),
    });
  }
  const get = async (file: string) =>
    (
      await request.call(dispatcher, {
        origin: `https://127.0.0.1:${port}`,
        path: `/${file}`,
        method: "GET",
        headers: { host: "media.outbox.test" },
      })
    ).body;
  if (scenario.includes("twice")) {
    return async (file) => {
      for await (const _ of await get(file)) {
        // the first pass, counted and dropped like a load without content-length
      }
      return { size: statSync(join(dir, file)).size, stream: await get(file) };
    };
  }
  return async (file) => ({ size: statSync(join(dir, file)).size, stream: await get(file) });
}

/** Child process: warm up on a small file, then measure one scenario. */
async function child(scenario: string, port: number, dir: string, gcEveryBytes: number): Promise<void> {
  const open = opener(scenario, port, dir);
  for await (const _ of (await open("small.bin")).stream) {
    // warm-up: modules, JIT, TLS session
  }
  collect();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  const timer = setInterval(sample, 2);
  const started = performance.now();
  const source = await open(SCENARIOS[scenario]?.file ?? "");
  const hash = createHash("sha256");
  let bytes = 0;
  let sinceGc = 0;
  for await (const chunk of source.stream) {
    hash.update(chunk);
    bytes += chunk.byteLength;
    sinceGc += chunk.byteLength;
    sample();
    if (gcEveryBytes > 0 && sinceGc >= gcEveryBytes) {
      collect();
      sinceGc = 0;
    }
  }
  clearInterval(timer);
  sample();
  if (bytes !== source.size) throw new Error(`${scenario}: streamed ${bytes} of ${source.size}`);
  const run: Run = {
    name: `${scenario}${gcEveryBytes > 0 ? ", gc every 4 MB" : ""}`,
    bytes,
    peakRssGrowthMb: Math.round(((peak - baseline) / MB) * 10) / 10,
    ms: Math.round(performance.now() - started),
  };
  process.stdout.write(JSON.stringify(run));
  process.exit(0);
}

/** Runs this script as a child (asynchronously: the parent serves the https file meanwhile). */
async function runChild(args: string[]): Promise<Run> {
  return JSON.parse(await spawnSelf(import.meta.url, args).done) as Run;
}

/** Figures: each Outbox run's growth, with its goal (≤ 20 MB, or within its reference's own footprint). */
function metricsOf(runs: Run[]): Metric[] {
  return runs.map((run) => {
    const reference = run.name.startsWith("reference");
    const gc = run.name.endsWith(", gc every 4 MB") ? ", gc every 4 MB" : "";
    const floor = runs.find((entry) => entry.name === `${referenceOf(run.name)}${gc}`)?.peakRssGrowthMb ?? 0;
    return {
      id: `media.${run.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}`,
      value: run.peakRssGrowthMb,
      unit: "MB",
      ...(reference ? {} : { goal: { op: "<=" as const, target: Math.max(GOAL_MB, floor * 1.25 + 2) } }),
      note: `peak RSS growth streaming through loadMedia().open() (${run.ms} ms)`,
    };
  });
}

async function main(quick: boolean): Promise<Run[]> {
  const dir = mkdtempSync(join(tmpdir(), "outbox-media-bench-"));
  writeBigFile(join(dir, "small.bin"), MB);
  writeBigFile(join(dir, "big.bin"), 50 * MB);
  if (!quick) writeBigFile(join(dir, "huge.bin"), 200 * MB);
  const server = createServer({ cert, key }, (incoming, response) => {
    const chunked = incoming.url?.startsWith("/chunked/") ?? false;
    const file = join(dir, (incoming.url ?? "").split("/").at(-1) ?? "");
    const length = chunked ? {} : { "content-length": statSync(file).size };
    response.writeHead(200, { "content-type": "application/octet-stream", ...length });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = String((server.address() as AddressInfo).port);
  const runs: Run[] = [];
  try {
    const scenarios = quick ? ["local file, 50 MB"] : Object.keys(SCENARIOS);
    for (const gcEvery of quick ? ["0"] : ["0", String(4 * MB)]) {
      for (const scenario of scenarios) runs.push(await runChild([scenario, port, dir, gcEvery]));
    }
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return runs;
}

/** The media-memory suite (quick: the local 50 MB file and its reference only). */
export const mediaMemorySuite: Suite = {
  name: "media",
  run: async ({ quick }) => metricsOf(await main(quick)),
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [scenarioArg, portArg, dirArg, gcArg] = process.argv.slice(2);
  await child(scenarioArg ?? "", Number(portArg), dirArg ?? "", Number(gcArg));
}
