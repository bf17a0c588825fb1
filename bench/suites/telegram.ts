/**
 * The Telegram adapter against bare grammY on the same emulator (in another process, flood
 * limits off), client CPU (this process) and wall time per reply, interleaved rounds:
 * Markdown text of 200 characters, 3 kB and 11 kB (split in 3) against hand-written
 * equivalent HTML; a photo; a 3-photo album. The adapter's clock skips its sleeps, so pacing
 * does not count. Also HTTP calls per payload. Goals (client CPU): text ≤ 1.3× / 1.8× / 2×,
 * media ≤ 1.05×. Gated: every ratio.
 */
import type { Clock } from "@outbox/core";
import { createTelegramAdapter } from "@outbox/telegram";
import { Api, InputFile, InputMediaBuilder } from "grammy";
import { startEmulatorProcess } from "../support/emulator-child.js";
import { measure, type Variant } from "../support/measure.js";
import { type Metric, ratioMetric, type Suite } from "../support/metrics.js";
import { noisePng } from "./png.js";
import { markdownReply, shortReply } from "./texts.js";

const CHAT = "42";

/** A clock whose sleeps return at once (virtual time), so pacing costs nothing. */
export function skippingClock(): Clock {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
}

interface Pair {
  name: string;
  goal: number;
  bare: Variant["run"];
  adapter: Variant["run"];
  /** Operations per round (cheaper pairs run more). */
  weight: number;
}

/** The telegram suite. */
export const telegramSuite: Suite = {
  name: "telegram",
  async run({ quick, slowdown }) {
    const emulator = await startEmulatorProcess(false);
    try {
      const api = new Api(emulator.token, { apiRoot: emulator.apiRoot });
      const adapter = createTelegramAdapter({
        token: emulator.token,
        apiRoot: emulator.apiRoot,
        clock: skippingClock(),
      });
      const mid = markdownReply(3_000);
      const big = markdownReply(11_000);
      const png = noisePng(quick ? 100 : 600);
      const photo = (name: string) => ({ mimeType: "image/png", data: png, fileName: name });
      const names = ["a.png", "b.png", "c.png"];
      const sendAll = async (messages: string[]) => {
        for (const html of messages) await api.sendMessage(CHAT, html, { parse_mode: "HTML" });
      };
      const pairs: Pair[] = [
        {
          name: "text200",
          goal: 1.3,
          weight: 4,
          bare: () => api.sendMessage(CHAT, shortReply.html, { parse_mode: "HTML" }),
          adapter: () => adapter.send({ text: shortReply.markdown }, { to: CHAT }),
        },
        {
          name: "text3k",
          goal: 1.8,
          weight: 2,
          bare: () => sendAll(mid.html),
          adapter: () => adapter.send({ text: mid.markdown }, { to: CHAT }),
        },
        {
          name: "text11k",
          goal: 2,
          weight: 1,
          bare: () => sendAll(big.html),
          adapter: () => adapter.send({ text: big.markdown }, { to: CHAT }),
        },
        {
          name: "photo",
          goal: 1.05,
          weight: 1,
          bare: () => api.sendPhoto(CHAT, new InputFile(png, "noise.png")),
          adapter: () => adapter.send({ text: "", media: [photo("noise.png")] }, { to: CHAT }),
        },
        {
          name: "album",
          goal: 1.05,
          weight: 1,
          bare: () =>
            api.sendMediaGroup(
              CHAT,
              names.map((n) => InputMediaBuilder.photo(new InputFile(png, n))),
            ),
          adapter: () => adapter.send({ text: "", media: names.map(photo) }, { to: CHAT }),
        },
      ];
      const metrics: Metric[] = [];
      for (const pair of pairs) {
        const measured = await measure(
          [
            { name: "bare", run: pair.bare },
            { name: "adapter", run: pair.adapter },
          ],
          {
            rounds: quick ? 3 : 9,
            perRound: (quick ? 2 : 10) * pair.weight,
            warmup: { minBatches: quick ? 1 : 5, maxBatches: quick ? 1 : 40 },
            ...(slowdown?.[`telegram.${pair.name}`]
              ? { slowdown: { adapter: slowdown[`telegram.${pair.name}`] ?? 1 } }
              : {}),
          },
        );
        const { cpuMs, wallMs } = measured;
        metrics.push(
          ratioMetric(`telegram.${pair.name}.cpu`, cpuMs.adapter ?? [], cpuMs.bare ?? [], {
            goal: { op: "<=", target: pair.goal },
            gate: true,
            note: `client CPU per reply, adapter over bare grammY (bare ${median(cpuMs.bare)} ms, adapter ${median(cpuMs.adapter)} ms); warm-up ${measured.warmup.operations} ops, cold ${measured.warmup.coldOverSettled.toFixed(2)}×`,
          }),
          ratioMetric(`telegram.${pair.name}.wall`, wallMs.adapter ?? [], wallMs.bare ?? [], {
            note: `wall time per reply, adapter over bare grammY (bare ${median(wallMs.bare)} ms, adapter ${median(wallMs.adapter)} ms; includes the emulator's work)`,
          }),
        );
      }
      metrics.push(...(await httpCalls(emulator, adapter, png)));
      return metrics;
    } finally {
      emulator.close();
    }
  },
};

const median = (values: number[] | undefined): number => {
  const sorted = [...(values ?? [])].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? 0) * 1000) / 1000;
};

/** HTTP requests the emulator received for one send of each payload. */
async function httpCalls(
  emulator: Awaited<ReturnType<typeof startEmulatorProcess>>,
  adapter: ReturnType<typeof createTelegramAdapter>,
  png: Buffer,
): Promise<Metric[]> {
  const photo = (name: string) => ({ mimeType: "image/png", data: png, fileName: name });
  const payloads = {
    text: { text: shortReply.markdown },
    text11k: { text: markdownReply(11_000).markdown },
    photo: { text: "", media: [photo("a.png")] },
    captionedPhoto: { text: shortReply.markdown, media: [photo("a.png")] },
    album: { text: "An album", media: [photo("a.png"), photo("b.png"), photo("c.png")] },
    longCaptionPhoto: { text: markdownReply(3_000).markdown, media: [photo("a.png")] },
  };
  const metrics: Metric[] = [];
  for (const [name, payload] of Object.entries(payloads)) {
    const before = (await emulator.stats()).requests;
    const receipt = await adapter.send(payload, { to: CHAT });
    if (!receipt.ok) throw new Error(`${name} failed: ${receipt.failures[0]?.error.message}`);
    const calls = (await emulator.stats()).requests - before;
    metrics.push({
      id: `telegram.httpCalls.${name}`,
      value: calls,
      unit: "calls",
      gate: true,
      note: `HTTP calls for one ${name} reply`,
    });
  }
  return metrics;
}
