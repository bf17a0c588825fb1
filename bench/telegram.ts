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
import { randomFillSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync } from "node:zlib";
import type { LoadedMedia } from "@outbox/core";
import { createTelegramAdapter, createTelegramTransport, telegramCapabilities } from "@outbox/telegram";
import { startTelegramEmulator } from "@outbox/telegram/testing";
import { Api, InputFile, InputMediaBuilder } from "grammy";
import {
  peakRssGrowth,
  round,
  skippingClock,
  timeEach,
  timeVariants,
  timingLine,
  type VariantTimes,
  writeDocument,
} from "./support/adapter-bench.js";
import { readBaseline } from "./support/baseline.js";
import { spawnSelf } from "./support/spawn-self.js";

const resultsFile = fileURLToPath(new URL("results/telegram.json", import.meta.url));
const DOCUMENT_BYTES = 50 * 1024 * 1024;
const GOALS = { text: 1.1, photo: 1.05, album: 1.05, rssMb: 20 };
const ROUNDS = 9;
const PHOTO_SIDE = 600;
const CHAT = "42";

/** A valid PNG of random pixels (600×600, about 1 MB: a phone photo), as a realistic upload. */
function noisePng(size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 3 + 1));
  randomFillSync(rows);
  for (let row = 0; row < size; row++) rows[row * (size * 3 + 1)] = 0; // filter byte: none
  const signature = Buffer.from("89504e470d0a1a0a", "hex");
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

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
    const variants = [scenario.bare, scenario.adapter, scenario.transport] as const;
    for (const variant of variants) await timeEach(variant, 10);
    results.push({ name: scenario.name, ...(await timeVariants(variants, scenario.count, ROUNDS)) });
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
  const growth = await peakRssGrowth(() => upload("big.pdf"), gcEveryMs);
  const who = via === "grammy" ? "bare grammY, InputFile(path)" : "adapter";
  process.stdout.write(
    JSON.stringify({
      name: `50 MB document, ${who}${gcEveryMs > 0 ? ` (gc every ${gcEveryMs} ms)` : ""}`,
      ...growth,
    }),
  );
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
interface Timing extends VariantTimes {
  name: string;
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
    console.log(timingLine(t.name, t, goal, before));
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
