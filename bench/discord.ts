/**
 * The Discord adapter against bare @discordjs/rest calls doing the same, over the same
 * emulator (in this process, buckets off): per-message time for text, and for text with a
 * 1 MB image. The adapter runs with a clock whose sleeps return at once, so the engine's
 * pacer does not count: only the adapter's own work does (parse, render, plan, multipart).
 * Goals: ≤ 1.10× bare REST for text, ≤ 1.05× for text + image.
 *
 * Run: npx tsx --conditions=source bench/discord.ts   (writes bench/results/discord.json)
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { REST } from "@discordjs/rest";
import { createDiscordAdapter } from "@outbox/discord";
import { DEFAULT_CHANNEL, startDiscordEmulator } from "@outbox/discord/testing";
import { noisePng } from "./suites/png.js";
import { median, round, skippingClock, timeEach } from "./support/adapter-bench.js";

/** Goals: adapter time ÷ bare REST time per message. */
export const DISCORD_GOALS = { text: 1.1, image: 1.05 } as const;

/** Figures of one scenario. */
export interface DiscordBenchFigure {
  /** `text` or `image` (text + one image). */
  name: keyof typeof DISCORD_GOALS;
  /** Bare REST, ms per message (median over rounds). */
  bareMs: number;
  /** The adapter, ms per message (median over rounds). */
  adapterMs: number;
  /** Median of the per-round ratios adapter ÷ bare (wall time). */
  ratio: number;
  /** CPU ms per message (median), bare and adapter: steadier than wall time on a busy machine. */
  cpuMs: { bare: number; adapter: number; ratio: number };
  /** The goal for `ratio`. */
  goal: number;
}

/** Options of {@link benchDiscord}. */
export interface DiscordBenchOptions {
  /** Rounds (each times both sides, interleaved). Default 7. */
  rounds?: number;
  /** Messages per round for text (image: a quarter). Default 80. */
  count?: number;
}

/** undici 6's Agent (the copy @discordjs/rest and the adapter use), so both sides keep connections alike. */
const { Agent } = createRequire(new URL("../adapters/discord/package.json", import.meta.url))("undici") as {
  Agent: new () => { close(): Promise<void> };
};

/** A receipt that is not fully delivered fails the benchmark (a fast failure is no result). */
async function delivered(receipt: Promise<{ ok: boolean; failures: unknown[] }>): Promise<void> {
  const { ok, failures } = await receipt;
  if (!ok) throw new Error(`adapter send failed: ${JSON.stringify(failures)}`);
}

/** Run the benchmark; returns one figure per scenario. */
export async function benchDiscord(options: DiscordBenchOptions = {}): Promise<DiscordBenchFigure[]> {
  const rounds = options.rounds ?? 7;
  const count = options.count ?? 80;
  const emulator = await startDiscordEmulator({ messageBucket: false });
  const agent = new Agent();
  // Like the adapter's own client: no self-imposed 50/s limiter (the engine paces instead).
  const rest = new REST({
    api: emulator.api,
    retries: 0,
    offset: 0,
    agent: agent as never,
    globalRequestsPerSecond: Number.POSITIVE_INFINITY,
  }).setToken(emulator.token);
  const adapter = createDiscordAdapter({ token: emulator.token, api: emulator.api, clock: skippingClock() });
  const route = `/channels/${DEFAULT_CHANNEL}/messages` as const;
  const target = { to: DEFAULT_CHANNEL };
  const markdown = "Here is **bold**, _italic_, `code` and a [link](https://example.com/x). "
    .repeat(5)
    .trimEnd();
  const rendered = "Here is **bold**, *italic*, `code` and a [link](https://example.com/x). "
    .repeat(5)
    .trimEnd();
  const png = noisePng(600);
  const mentions = { parse: [] };
  const scenarios = [
    {
      name: "text" as const,
      count,
      bare: () => rest.post(route, { body: { content: rendered, allowed_mentions: mentions } }),
      adapter: () => delivered(adapter.send({ text: markdown }, target)),
    },
    {
      name: "image" as const,
      count: Math.max(1, Math.floor(count / 4)),
      bare: () =>
        rest.post(route, {
          body: {
            content: rendered,
            attachments: [{ id: 0, filename: "noise.png" }],
            allowed_mentions: mentions,
          },
          files: [{ name: "noise.png", data: png, contentType: "image/png" }],
        }),
      adapter: () =>
        delivered(
          adapter.send(
            { text: markdown, media: [{ mimeType: "image/png", data: png, fileName: "noise.png" }] },
            target,
          ),
        ),
    },
  ];
  const figures: DiscordBenchFigure[] = [];
  try {
    for (const scenario of scenarios) {
      await scenario.bare(); // warm both paths
      await scenario.adapter();
      const bare: number[] = [];
      const mine: number[] = [];
      const ratios: number[] = [];
      const cpu = { bare: [] as number[], adapter: [] as number[], ratio: [] as number[] };
      for (let r = 0; r < rounds; r++) {
        // Alternate which side goes first, so drift in machine load hits both alike.
        const first = r % 2 === 0;
        const b1 = first ? await timeEach(scenario.bare, scenario.count) : undefined;
        const a = await timeEach(scenario.adapter, scenario.count);
        const b = b1 ?? (await timeEach(scenario.bare, scenario.count));
        bare.push(b.wall);
        mine.push(a.wall);
        ratios.push(a.wall / b.wall);
        cpu.bare.push(b.cpu);
        cpu.adapter.push(a.cpu);
        cpu.ratio.push(a.cpu / b.cpu);
      }
      figures.push({
        name: scenario.name,
        bareMs: round(median(bare)),
        adapterMs: round(median(mine)),
        ratio: round(median(ratios)),
        cpuMs: {
          bare: round(median(cpu.bare)),
          adapter: round(median(cpu.adapter)),
          ratio: round(median(cpu.ratio)),
        },
        goal: DISCORD_GOALS[scenario.name],
      });
    }
  } finally {
    await adapter.close?.();
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
    await agent.close();
    await emulator.close();
  }
  return figures;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await benchDiscord();
  const result = {
    node: process.version,
    loadAverage: round(loadavg()[0] ?? 0),
    goals: DISCORD_GOALS,
    times: figures,
  };
  writeFileSync(
    fileURLToPath(new URL("results/discord.json", import.meta.url)),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  for (const f of figures)
    console.log(
      `${f.name}: bare ${f.bareMs} ms, adapter ${f.adapterMs} ms, ratio ${f.ratio} (goal ≤ ${f.goal}); CPU ${f.cpuMs.bare} vs ${f.cpuMs.adapter} ms (${f.cpuMs.ratio})`,
    );
}
