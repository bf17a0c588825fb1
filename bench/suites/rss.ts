/**
 * Peak RSS growth of one 50 MB document upload through the Telegram adapter (a local file,
 * streamed), next to bare grammY's `InputFile(path)`, each in a fresh child process against
 * the emulator (another process). Goal: ≤ 20 MB growth; gated: adapter over bare.
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTelegramAdapter } from "@outbox/telegram";
import { Api, InputFile } from "grammy";
import { skippingClock } from "../support/adapter-bench.js";
import { startEmulatorProcess } from "../support/emulator-child.js";
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

/** Child process: one upload, peak RSS growth sampled every 2 ms, printed as JSON. */
async function child(apiRoot: string, token: string, dir: string, via: string): Promise<void> {
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
    if (!receipt.ok) throw new Error(`upload failed: ${receipt.failures[0]?.error.message}`);
  };
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

/** The RSS suite (full runs only: 50 MB uploads take seconds). */
export const rssSuite: Suite = {
  name: "rss",
  async run({ quick }) {
    const emulator = await startEmulatorProcess(false);
    const dir = mkdtempSync(join(tmpdir(), "outbox-bench-rss-"));
    try {
      writeDocument(join(dir, "big.pdf"), (quick ? 5 : 50) * MB);
      writeDocument(join(dir, "small.pdf"), MB);
      const growth: Record<string, number> = {};
      for (const via of quick ? ["adapter"] : ["adapter", "grammy"]) {
        const out = await spawnSelf(import.meta.url, [
          "rss-child",
          emulator.apiRoot,
          emulator.token,
          dir,
          via,
        ]).done;
        growth[via] = (JSON.parse(out) as { growthMb: number }).growthMb;
      }
      const adapterMb = growth.adapter ?? 0;
      const bareMb = growth.grammy ?? Number.NaN;
      const metrics: Metric[] = [
        {
          id: "rss.adapterMb",
          value: adapterMb,
          unit: "MB",
          goal: { op: "<=", target: 20 },
          note: `peak RSS growth, ${quick ? 5 : 50} MB document through the adapter`,
        },
      ];
      if (quick) return metrics;
      metrics.push(
        {
          id: "rss.bareGrammyMb",
          value: bareMb,
          unit: "MB",
          note: "the same upload, bare grammY InputFile(path)",
        },
        {
          id: "rss.adapterOverBare",
          value: round(Math.max(adapterMb, 1) / Math.max(bareMb, 1), 2),
          unit: "×",
          spread: 0.25,
          gate: true,
          note: "adapter growth over bare grammY's (each at least 1 MB; RSS sampling is coarse)",
        },
      );
      return metrics;
    } finally {
      emulator.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "rss-child") {
  const [, , , apiRoot = "", token = "", dir = "", via = "adapter"] = process.argv;
  await child(apiRoot, token, dir, via);
}
