/**
 * Peak RSS growth of one 50 MB document upload (a local file, streamed) through the Telegram
 * adapter next to bare grammY's `InputFile(path)`, and through the Slack adapter next to bare
 * `WebClient.filesUploadV2({ file: path })`, each in a fresh child process against the
 * platform's emulator (another process). Goals: Telegram ≤ 20 MB growth, Slack no more than
 * the bare client's; gated: adapter over bare. (Discord refuses files over 10 MB.)
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { skippingClock } from "../support/adapter-bench.js";
import { type Platform, SLACK_CHANNEL, startEmulatorProcess } from "../support/emulator-child.js";
import type { Metric, Suite } from "../support/metrics.js";
import { spawnSelf } from "../support/spawn-self.js";
import { round } from "../support/stats.js";

const MB = 1024 * 1024;
const CHAT = "42";

/** A PDF-headed file of `size` bytes written 1 MB at a time. */
function writeDocument(path: string, size: number): void {
  const fd = openSync(path, "w");
  const block = Buffer.alloc(MB, 0x20);
  block.write("%PDF-1.4\n");
  for (let written = 0; written < size; written += block.length)
    writeSync(fd, block, 0, Math.min(block.length, size - written));
  closeSync(fd);
}

/** One upload of the file `name` in `dir`, through the adapter or the bare client (one platform loaded). */
async function uploader(platform: Platform, apiRoot: string, token: string, dir: string, via: string) {
  const media = { localRoots: [dir] };
  if (platform === "slack") {
    const { createSlackAdapter } = await import("@outbox/slack");
    const { WebClient } = await import("@slack/web-api");
    const adapter = createSlackAdapter({ token, slackApiUrl: apiRoot, media, clock: skippingClock() });
    const web = new WebClient(token, { slackApiUrl: apiRoot, retryConfig: { retries: 0 } });
    return async (name: string) => {
      if (via === "bare")
        return void (await web.filesUploadV2({
          channel_id: SLACK_CHANNEL,
          file: join(dir, name),
          filename: name,
        }));
      const receipt = await adapter.send({ text: "", mediaUrls: [join(dir, name)] }, { to: SLACK_CHANNEL });
      if (!receipt.ok) throw new Error(`upload failed: ${receipt.failures[0]?.error.message}`);
    };
  }
  const { createTelegramAdapter } = await import("@outbox/telegram");
  const { Api, InputFile } = await import("grammy");
  const adapter = createTelegramAdapter({ token, apiRoot, media, clock: skippingClock() });
  const api = new Api(token, { apiRoot });
  return async (name: string) => {
    if (via === "bare") return void (await api.sendDocument(CHAT, new InputFile(join(dir, name))));
    const receipt = await adapter.send({ text: "", mediaUrls: [join(dir, name)] }, { to: CHAT });
    if (!receipt.ok) throw new Error(`upload failed: ${receipt.failures[0]?.error.message}`);
  };
}

/** Child process: one upload, peak RSS growth sampled every 2 ms, printed as JSON. */
async function child(
  platform: Platform,
  apiRoot: string,
  token: string,
  dir: string,
  via: string,
): Promise<void> {
  const upload = await uploader(platform, apiRoot, token, dir, via);
  await upload("small.pdf");
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  await upload("big.pdf");
  clearInterval(timer);
  process.stdout.write(JSON.stringify({ growthMb: round((peak - baseline) / MB, 1) }));
}

/** Peak RSS growth (MB) of one upload of `big.pdf` in a fresh child process. */
async function growthMb(platform: Platform, apiRoot: string, token: string, dir: string, via: string) {
  const out = await spawnSelf(import.meta.url, ["rss-child", platform, apiRoot, token, dir, via]).done;
  return (JSON.parse(out) as { growthMb: number }).growthMb;
}

/** The metrics of one platform: adapter growth (with `goal`), and in full runs bare growth and the gated ratio. */
async function platformRss(
  platform: Platform,
  bare: { name: string; id: string },
  goal: Metric["goal"] | "bare",
  dir: string,
  quick: boolean,
): Promise<Metric[]> {
  const emulator = await startEmulatorProcess(false, platform);
  try {
    const size = `${quick ? 5 : 50} MB document`;
    const prefix = platform === "telegram" ? "rss" : `rss.${platform}`;
    const adapterMb = await growthMb(platform, emulator.apiRoot, emulator.token, dir, "adapter");
    const metrics: Metric[] = [
      {
        id: `${prefix}.adapterMb`,
        value: adapterMb,
        unit: "MB",
        ...(goal && goal !== "bare" ? { goal } : {}),
        note: `peak RSS growth, ${size} through the ${platform} adapter`,
      },
    ];
    if (quick) return metrics;
    const bareMb = await growthMb(platform, emulator.apiRoot, emulator.token, dir, "bare");
    metrics.push(
      {
        id: `${prefix}.${bare.id}`,
        value: bareMb,
        unit: "MB",
        note: `the same upload, bare ${bare.name}`,
      },
      {
        id: `${prefix}.adapterOverBare`,
        value: round(Math.max(adapterMb, 1) / Math.max(bareMb, 1), 2),
        unit: "×",
        spread: 0.25,
        gate: true,
        ...(goal === "bare" ? { goal: { op: "<=", target: 1 } as const } : {}),
        note: `adapter growth over bare ${bare.name}'s (each at least 1 MB; RSS sampling is coarse)`,
      },
    );
    return metrics;
  } finally {
    emulator.close();
  }
}

/** The RSS suite (quick runs: 5 MB, adapters only, platforms in parallel). */
export const rssSuite: Suite = {
  name: "rss",
  async run({ quick }) {
    const dir = mkdtempSync(join(tmpdir(), "outbox-bench-rss-"));
    try {
      writeDocument(join(dir, "big.pdf"), (quick ? 5 : 50) * MB);
      writeDocument(join(dir, "small.pdf"), MB);
      const telegram = () =>
        platformRss("telegram", { name: "grammY", id: "bareGrammyMb" }, { op: "<=", target: 20 }, dir, quick);
      const slack = () =>
        platformRss("slack", { name: "WebClient", id: "bareWebClientMb" }, "bare", dir, quick);
      // Quick runs only check that it runs: both platforms at once (each child is its own process).
      if (quick) return (await Promise.all([telegram(), slack()])).flat();
      return [...(await telegram()), ...(await slack())];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "rss-child") {
  const [, , , platform = "telegram", apiRoot = "", token = "", dir = "", via = "adapter"] = process.argv;
  await child(platform as Platform, apiRoot, token, dir, via);
}
