/**
 * The Telegram adapter against bare grammY, over the same emulator (in a child process,
 * flood limits off): per-message time for text, a photo and a 3-photo album, and the peak
 * RSS growth of a 50 MB document upload through the adapter (in its own child process).
 * The adapter runs with a clock whose sleeps return at once, so the engine's pacer (which
 * keeps real Telegram from answering 429) does not count: only the adapter's own work does.
 * Goals: ≤ 1.10× bare grammY for text, ≤ 1.05× for media, RSS growth ≤ 20 MB.
 *
 * Run: npx tsx --conditions=source bench/telegram.ts
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadedMedia } from "@outbox/core";
import { createTelegramAdapter, createTelegramTransport, telegramCapabilities } from "@outbox/telegram";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { Api, InputFile, InputMediaBuilder } from "grammy";
import { readBaseline } from "./support/baseline.js";
import { spawnSelf } from "./support/spawn-self.js";
import { noisePng, skippingClock } from "./support/upload-fixtures.js";

const resultsFile = fileURLToPath(new URL("results/telegram.json", import.meta.url));
const DOCUMENT_BYTES = 50 * 1024 * 1024;
const GOALS = { text: 1.1, photo: 1.05, album: 1.05, rssMb: 20 };
const ROUNDS = 9;
const PHOTO_SIDE = 600;
const CHAT = "42";

interface Scenario {
  name: "text" | "photo" | "album";
  count: number;
  /** Bare grammY call. */
  bare: () => Promise<unknown>;
  /** The whole adapter: core's engine (parse, load, plan) + renderer + transport. */
  adapter: () => Promise<unknown>;
  /** This package's transport alone, given the operation core would hand it. */
  transport: () => Promise<unknown>;
}

/** Inline bytes as core's loader hands them to a transport. */
function inline(bytes: Buffer, fileName: string): LoadedMedia {
  return {
    kind: "image",
    mimeType: "image/png",
    fileName,
    size: bytes.length,
    source: { type: "inline" },
    width: PHOTO_SIDE,
    height: PHOTO_SIDE,
    async *open() {
      yield bytes;
    },
  };
}

/** Wall time and this process's CPU time (the emulator runs elsewhere) per message, in ms. */
async function timeEach(run: () => Promise<unknown>, count: number): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) await run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - started) / count, cpu: (used.user + used.system) / 1000 / count };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

async function timing(apiRoot: string, token: string) {
  const api = new Api(token, { apiRoot });
  const adapter = createTelegramAdapter({ client: api, clock: skippingClock() });
  const transport = createTelegramTransport(api, { capabilities: telegramCapabilities, linkPreview: true });
  const target = { to: CHAT };
  const png = noisePng(PHOTO_SIDE);
  const markdown = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). ".repeat(5);
  const html =
    'Here is <b>bold</b>, <i>italic</i>, <code>code</code> and a <a href="https://example.com/x">link</a>. '
      .repeat(5)
      .trimEnd();
  const photo = (name: string) => ({ mimeType: "image/png", data: png, fileName: name });
  const scenarios: Scenario[] = [
    {
      name: "text",
      count: 100,
      bare: () => api.sendMessage(CHAT, html, { parse_mode: "HTML" }),
      adapter: () => adapter.send({ text: markdown }, { to: CHAT }),
      transport: () => transport.sendText({ type: "text", target, text: { text: html, plain: markdown } }),
    },
    {
      name: "photo",
      count: 40,
      bare: () => api.sendPhoto(CHAT, new InputFile(png, "noise.png")),
      adapter: () => adapter.send({ text: "", media: [photo("noise.png")] }, { to: CHAT }),
      transport: () =>
        transport.sendMedia({ type: "media", target, kind: "image", media: inline(png, "noise.png") }),
    },
    {
      name: "album",
      count: 20,
      bare: () =>
        api.sendMediaGroup(
          CHAT,
          ["a.png", "b.png", "c.png"].map((name) => InputMediaBuilder.photo(new InputFile(png, name))),
        ),
      adapter: () => adapter.send({ text: "", media: ["a.png", "b.png", "c.png"].map(photo) }, { to: CHAT }),
      transport: () =>
        transport.sendAlbum!({
          type: "album",
          target,
          items: ["a.png", "b.png", "c.png"].map((name) => ({
            kind: "image" as const,
            media: inline(png, name),
          })),
        }),
    },
  ];
  const results = [];
  for (const scenario of scenarios) {
    const variants = [scenario.bare, scenario.adapter, scenario.transport];
    for (const variant of variants) await timeEach(variant, 10);
    const wall: number[][] = [[], [], []];
    const cpu: number[][] = [[], [], []];
    for (let r = 0; r < ROUNDS; r++) {
      // Rotate the order, so no variant always gets the warmest connection.
      for (let k = 0; k < variants.length; k++) {
        const index = (k + r) % variants.length;
        const time = await timeEach(variants[index]!, scenario.count);
        wall[index]?.push(time.wall);
        cpu[index]?.push(time.cpu);
      }
    }
    const [bareMs, adapterMs, transportMs] = wall.map(median) as [number, number, number];
    const [bareCpu, adapterCpu, transportCpu] = cpu.map(median) as [number, number, number];
    results.push({
      name: scenario.name,
      bareMs: round(bareMs),
      adapterMs: round(adapterMs),
      ratio: round(adapterMs / bareMs),
      transportMs: round(transportMs),
      transportRatio: round(transportMs / bareMs),
      cpuMs: { bare: round(bareCpu), adapter: round(adapterCpu), transport: round(transportCpu) },
    });
  }
  return results;
}

/** Child process: one 50 MB document through the adapter (or bare grammY from the path), peak RSS growth sampled every 2 ms. */
async function memory(
  apiRoot: string,
  token: string,
  dir: string,
  gcEveryMs: number,
  via: string,
): Promise<void> {
  const adapter = createTelegramAdapter({
    token,
    apiRoot,
    media: { localRoots: [dir] },
    clock: skippingClock(),
  });
  const api = new Api(token, { apiRoot });
  const upload = async (name: string) => {
    if (via === "grammy") return void (await api.sendDocument(CHAT, new InputFile(join(dir, name))));
    const receipt = await adapter.send({ text: "", mediaUrls: [join(dir, name)] }, { to: CHAT });
    if (!receipt.ok) throw new Error(`upload failed: ${JSON.stringify(receipt.failures)}`);
  };
  await upload("small.pdf");
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  let lastGc = performance.now();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
    if (gcEveryMs > 0 && performance.now() - lastGc >= gcEveryMs) {
      gc?.();
      lastGc = performance.now();
    }
  }, 2);
  const started = performance.now();
  await upload("big.pdf");
  clearInterval(timer);
  const who = via === "grammy" ? "bare grammY, InputFile(path)" : "adapter";
  process.stdout.write(
    JSON.stringify({
      name: `50 MB document, ${who}${gcEveryMs > 0 ? ` (gc every ${gcEveryMs} ms)` : ""}`,
      peakRssGrowthMb: round((peak - baseline) / 1024 / 1024, 1),
      ms: Math.round(performance.now() - started),
    }),
  );
}

/** A PDF-headed file of `size` bytes written 1 MB at a time. */
function writeDocument(path: string, size: number): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(1024 * 1024, 0x20);
  block.write("%PDF-1.4\n");
  for (let written = 0; written < size; written += block.length)
    writeSync(fd, block, 0, Math.min(block.length, size - written));
  closeSync(fd);
}

async function main(): Promise<void> {
  let ready: (value: { apiRoot: string; token: string }) => void = () => {};
  const started = new Promise<{ apiRoot: string; token: string }>((resolve) => {
    ready = resolve;
  });
  const emulator = spawnSelf(import.meta.url, ["emulator"], (line) => ready(JSON.parse(line)));
  const dir = mkdtempSync(join(tmpdir(), "outbox-telegram-bench-"));
  try {
    const { apiRoot, token } = await started;
    const texts = await timing(apiRoot, token);
    writeDocument(join(dir, "big.pdf"), DOCUMENT_BYTES);
    writeDocument(join(dir, "small.pdf"), 1024 * 1024);
    const rss = [];
    for (const via of ["adapter", "grammy"]) {
      for (const gcEveryMs of [0, 20]) {
        const args = ["memory", apiRoot, token, dir, String(gcEveryMs), via];
        rss.push(JSON.parse(await spawnSelf(import.meta.url, args).done));
      }
    }
    report(texts, rss);
  } finally {
    emulator.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One timing row: bare grammY, the whole adapter, and this package's transport alone. */
interface Timing {
  name: string;
  bareMs: number;
  adapterMs: number;
  ratio: number;
  transportMs: number;
  transportRatio: number;
  /** CPU time of the sending process per message (load on the machine barely moves it). */
  cpuMs: { bare: number; adapter: number; transport: number };
}

function report(times: Timing[], rss: Array<{ name: string; peakRssGrowthMb: number; ms: number }>): void {
  const previous = readBaseline<{ times: typeof times }>(resultsFile);
  console.log(
    `${"scenario".padEnd(8)} bare grammY   adapter    ratio   transport  ratio   goal   baseline ratio`,
  );
  const missed: string[] = [];
  for (const t of times) {
    const goal = GOALS[t.name as "text" | "photo" | "album"];
    if (t.ratio > goal) missed.push(t.name);
    const before = previous?.times.find((p) => p.name === t.name)?.ratio ?? "-";
    const cells = [
      `${t.bareMs} ms`,
      `${t.adapterMs} ms`,
      `${t.ratio}×`,
      `${t.transportMs} ms`,
      `${t.transportRatio}×`,
      `${goal}×`,
    ];
    console.log(`${t.name.padEnd(8)} ${cells.map((c) => c.padStart(9)).join(" ")}   ${before}`);
    const { bare, adapter, transport } = t.cpuMs;
    console.log(
      `${"".padEnd(8)} CPU per message: bare ${bare} ms, adapter ${adapter} ms, transport ${transport} ms`,
    );
  }
  for (const r of rss) {
    console.log(
      `${r.name.padEnd(40)} peak RSS growth ${r.peakRssGrowthMb} MB (${r.ms} ms), goal ≤ ${GOALS.rssMb} MB`,
    );
  }
  const adapterRun = rss.find((r) => r.name === "50 MB document, adapter");
  if (adapterRun && adapterRun.peakRssGrowthMb > GOALS.rssMb) missed.push("rss (default GC)");
  writeFileSync(
    resultsFile,
    `${JSON.stringify({ node: process.version, loadAverage: round(loadavg()[0] ?? 0, 2), goals: GOALS, times, rss }, null, 2)}\n`,
  );
  if (missed.length > 0) {
    console.log(`goals missed: ${missed.join(", ")}`);
    process.exitCode = 1;
  }
}

const [role, ...args] = process.argv.slice(2);
if (role === undefined) await main();
else if (role === "emulator") {
  const emulator = await startTelegramEmulator({ rateLimits: false });
  process.stdout.write(`${JSON.stringify({ apiRoot: emulator.apiRoot, token: emulator.token })}\n`);
} else if (role === "memory") {
  const [apiRoot = "", token = "", dir = "", gcEveryMs = "0", via = "adapter"] = args;
  await memory(apiRoot, token, dir, Number(gcEveryMs), via);
}
