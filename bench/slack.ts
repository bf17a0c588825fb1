/**
 * The Slack adapter against bare `WebClient` calls doing the same, over the same emulator (in
 * a child process, rate limits off): per-message time for text and for text + a file (1 MB
 * PNG with a caption), the HTTP calls per payload, and the peak RSS growth of a 50 MB upload
 * through the adapter next to a bare `WebClient.filesUploadV2` of the same file (each in its
 * own child process). The adapter runs with a clock whose sleeps return at once, so the
 * engine's pacer does not count: only the adapter's own work does.
 * Goals: ≤ 1.10× bare for text, ≤ 1.05× for a file, RSS growth no more than the bare client's.
 *
 * Run: npx tsx --conditions=source bench/slack.ts   (`runSlackBench()` returns the figures)
 */
import { randomFillSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LoadedMedia } from "@outbox/core";
import { createSlackAdapter, createSlackClient, createSlackTransport } from "@outbox/slack";
import { startSlackEmulator } from "@outbox/slack/testing";
import { WebClient } from "@slack/web-api";
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

const resultsFile = fileURLToPath(new URL("results/slack.json", import.meta.url));
const GOALS = { text: 1.1, file: 1.05 };
const CHANNEL = "C0BENCH";
const FILE_BYTES = 1024 * 1024;
const UPLOAD_BYTES = 50 * 1024 * 1024;

/** One timing row: bare WebClient, the whole adapter, and this package's transport alone. */
export interface SlackTiming extends VariantTimes {
  name: "text" | "file";
  /** HTTP requests per payload. */
  calls: { bare: number; adapter: number };
}

/** Peak RSS growth of one 50 MB upload. */
export interface SlackRss {
  name: string;
  peakRssGrowthMb: number;
  ms: number;
}

/** Everything the benchmark measured. */
export interface SlackBenchResult {
  node: string;
  loadAverage: number;
  goals: typeof GOALS & { rss: string };
  times: SlackTiming[];
  rss: SlackRss[];
}

/** A fetch that counts requests, for the calls-per-payload figure. */
function countingFetch(counter: { n: number }): typeof fetch {
  return (input, init) => {
    counter.n += 1;
    return fetch(input, init);
  };
}

function inline(bytes: Buffer, fileName: string): LoadedMedia {
  return {
    kind: "document",
    mimeType: "application/octet-stream",
    fileName,
    size: bytes.length,
    source: { type: "inline" },
    async *open() {
      yield bytes;
    },
  };
}

async function timing(
  slackApiUrl: string,
  token: string,
  rounds: number,
  scale: number,
): Promise<SlackTiming[]> {
  const counter = { n: 0 };
  const clientOptions = { fetch: countingFetch(counter) as never };
  const web = new WebClient(token, { slackApiUrl, ...clientOptions, retryConfig: { retries: 0 } });
  const adapter = createSlackAdapter({ token, slackApiUrl, clientOptions, clock: skippingClock() });
  const transport = createSlackTransport(createSlackClient({ token, slackApiUrl, clientOptions }), {
    unfurl: false,
  });
  const target = { to: CHANNEL };
  const markdown = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). ".repeat(5);
  const mrkdwn = "Here is *bold*, _italic_, `code` and a <https://example.com/x|link>. ".repeat(5).trimEnd();
  const bytes = randomFillSync(Buffer.alloc(FILE_BYTES));
  const scenarios = [
    {
      name: "text" as const,
      count: Math.max(5, Math.round(60 * scale)),
      bare: () =>
        web.chat.postMessage({
          channel: CHANNEL,
          text: mrkdwn,
          mrkdwn: true,
          unfurl_links: false,
          unfurl_media: false,
        }),
      adapter: () => adapter.send({ text: markdown }, target),
      transport: () => transport.sendText({ type: "text", target, text: { text: mrkdwn, plain: markdown } }),
    },
    {
      name: "file" as const,
      count: Math.max(3, Math.round(20 * scale)),
      bare: () =>
        web.filesUploadV2({
          channel_id: CHANNEL,
          file: bytes,
          filename: "noise.bin",
          initial_comment: "The *file*.",
        }),
      adapter: () =>
        adapter.send(
          {
            text: "The **file**.",
            media: [{ mimeType: "application/octet-stream", data: bytes, fileName: "noise.bin" }],
          },
          target,
        ),
      transport: () =>
        transport.sendMedia({
          type: "media",
          target,
          kind: "document",
          media: inline(bytes, "noise.bin"),
          caption: { text: "The *file*.", plain: "The file." },
        }),
    },
  ];
  const results: SlackTiming[] = [];
  for (const s of scenarios) {
    const variants = [s.bare, s.adapter, s.transport];
    const calls: number[] = [];
    for (const variant of variants) {
      const before = counter.n;
      await timeEach(variant, 3);
      calls.push((counter.n - before) / 3);
    }
    const times = await timeVariants([s.bare, s.adapter, s.transport], s.count, rounds);
    results.push({ name: s.name, ...times, calls: { bare: calls[0] ?? 0, adapter: calls[1] ?? 0 } });
  }
  return results;
}

/** Child process: one 50 MB upload, through the adapter or bare WebClient, peak RSS sampled every 2 ms. */
async function memory(
  slackApiUrl: string,
  token: string,
  dir: string,
  via: string,
  gcEveryMs: number,
): Promise<void> {
  const adapter = createSlackAdapter({
    token,
    slackApiUrl,
    media: { localRoots: [dir] },
    clock: skippingClock(),
  });
  const web = new WebClient(token, { slackApiUrl, retryConfig: { retries: 0 } });
  const upload = async (name: string) => {
    const path = join(dir, name);
    if (via === "bare")
      return void (await web.filesUploadV2({ channel_id: CHANNEL, file: path, filename: name }));
    const receipt = await adapter.send({ text: "", mediaUrls: [path] }, { to: CHANNEL });
    if (!receipt.ok) throw new Error(`upload failed: ${JSON.stringify(receipt.failures)}`);
  };
  await upload("small.pdf");
  const growth = await peakRssGrowth(() => upload("big.pdf"), gcEveryMs);
  const who = via === "bare" ? "bare WebClient.filesUploadV2(path)" : "adapter";
  const result: SlackRss = {
    name: `50 MB file, ${who}${gcEveryMs > 0 ? ` (gc every ${gcEveryMs} ms)` : ""}`,
    ...growth,
  };
  process.stdout.write(JSON.stringify(result));
}

/** Run the benchmark (`scale` < 1 for a quick run) and return its figures. */
export async function runSlackBench(
  options: { rounds?: number; scale?: number } = {},
): Promise<SlackBenchResult> {
  let ready: (value: { slackApiUrl: string; token: string }) => void = () => {};
  const started = new Promise<{ slackApiUrl: string; token: string }>((resolve) => {
    ready = resolve;
  });
  const emulator = spawnSelf(import.meta.url, ["emulator"], (line) => ready(JSON.parse(line)));
  const dir = mkdtempSync(join(tmpdir(), "outbox-slack-bench-"));
  try {
    const { slackApiUrl, token } = await started;
    const times = await timing(slackApiUrl, token, options.rounds ?? 7, options.scale ?? 1);
    writeDocument(join(dir, "big.pdf"), UPLOAD_BYTES);
    writeDocument(join(dir, "small.pdf"), 1024 * 1024);
    const rss: SlackRss[] = [];
    for (const via of ["adapter", "bare"])
      for (const gcEveryMs of ["0", "20"])
        rss.push(
          JSON.parse(
            await spawnSelf(import.meta.url, ["memory", slackApiUrl, token, dir, via, gcEveryMs]).done,
          ),
        );
    return {
      node: process.version,
      loadAverage: round(loadavg()[0] ?? 0, 2),
      goals: { ...GOALS, rss: "adapter ≤ bare WebClient" },
      times,
      rss,
    };
  } finally {
    emulator.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(result: SlackBenchResult): void {
  const previous = readBaseline<SlackBenchResult>(resultsFile);
  console.log(
    `${"scenario".padEnd(8)}  bare WebClient   adapter    ratio   transport  ratio   goal   baseline ratio`,
  );
  const missed: string[] = [];
  for (const t of result.times) {
    const goal = GOALS[t.name];
    if (t.ratio > goal) missed.push(t.name);
    const before = previous?.times.find((p) => p.name === t.name)?.ratio ?? "-";
    console.log(timingLine(t.name, t, goal, before, 10));
    console.log(
      `${"".padEnd(8)} CPU/message: bare ${t.cpuMs.bare} ms, adapter ${t.cpuMs.adapter} ms, transport ${t.cpuMs.transport} ms; HTTP calls: bare ${t.calls.bare}, adapter ${t.calls.adapter}`,
    );
  }
  for (const r of result.rss)
    console.log(`${r.name.padEnd(44)} peak RSS growth ${r.peakRssGrowthMb} MB (${r.ms} ms)`);
  const [adapterRss, , bareRss] = result.rss;
  if (adapterRss && bareRss && adapterRss.peakRssGrowthMb > bareRss.peakRssGrowthMb) missed.push("rss");
  writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
  if (missed.length > 0) {
    console.log(`goals missed: ${missed.join(", ")}`);
    process.exitCode = 1;
  }
}

const [role, ...args] = process.argv.slice(2);
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (role === undefined) report(await runSlackBench());
  else if (role === "quick") console.log(JSON.stringify(await runSlackBench({ rounds: 1, scale: 0.1 })));
  else if (role === "emulator") {
    const emulator = await startSlackEmulator({ channels: [{ id: CHANNEL }], rateLimits: false });
    process.stdout.write(`${JSON.stringify({ slackApiUrl: emulator.slackApiUrl, token: emulator.token })}\n`);
  } else if (role === "memory") {
    const [slackApiUrl = "", token = "", dir = "", via = "adapter", gcEveryMs = "0"] = args;
    await memory(slackApiUrl, token, dir, via, Number(gcEveryMs));
  }
}
