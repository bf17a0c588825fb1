/**
 * Engine overhead per operation on an in-memory transport (no network, no pacing): CPU µs per
 * `send` of a short text, of a media message with inline media (load + sniff + plan +
 * execute), and of a long Markdown reply split into chunks (µs per send and per chunk); and
 * Markdown parsing alone (`parseReplyMarkdown`, markdown-it) of a 158-character rich
 * paragraph, the 11 kB reply and a 1 MB reply, beside micromark (the parser used before,
 * kept as the test oracle) on the same texts.
 *
 * Run: npx tsx --conditions=source bench/engine.ts
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type AdapterDefinition,
  createAdapter,
  createPlainRenderer,
  parseReplyMarkdown,
  planDelivery,
  type Transport,
} from "@outbox/core";
import { png } from "../packages/core/test/engine/support/media-bytes.js";
import { testCapabilities } from "../packages/core/test/engine/support/recording-transport.js";
import { parseWithMicromark } from "../packages/core/test/markdown/support/micromark-oracle.js";
import { readBaseline } from "./support/baseline.js";

const resultsFile = fileURLToPath(new URL("results/engine.json", import.meta.url));
/** Goal: the engine's own work (send minus Markdown parsing) for a short text, in µs. */
const GOAL_ENGINE_TEXT_US = 1_000;
const baseline = readBaseline<Record<string, unknown>>(resultsFile);

let ids = 0;
const transport: Transport = {
  sendText: async () => ({ id: String(++ids) }),
  sendMedia: async () => ({ id: String(++ids) }),
  sendAlbum: async (op) => ({ id: String(++ids), memberIds: op.items.map(() => String(++ids)) }),
};
const renderer = createPlainRenderer();
const definition: AdapterDefinition = {
  name: "bench",
  capabilities: testCapabilities({
    text: { maxLength: 4096, format: "plain" },
    caption: { maxLength: 1024 },
  }),
  renderer,
  transport,
};
const adapter = createAdapter(definition);
const image = png(64, 64);
const longText = Array.from(
  { length: 120 },
  (_, i) =>
    `Paragraph ${i}: **bold**, _emphasis_, \`code\`, a [link](https://example.com/${i}) and some words.`,
).join("\n\n");

/** A rich paragraph of 158 characters: every inline construct once. */
const rich =
  "See **bold**, _emphasis_, `inline code`, ~~struck~~, ||a spoiler||, a [link](https://example.com/docs) and ![an image](https://e.x/i.png), then plain words.";
/** A 1 MB reply: the long reply repeated (an attacker-controlled reply may be this big). */
const megabyteText = longText.repeat(Math.ceil(1_000_000 / longText.length) + 1).slice(0, 1_000_000);

/** One measured scenario. */
interface Scenario {
  /** Label. */
  name: string;
  /** Calls per round. */
  iterations: number;
  /** The call. */
  run: () => unknown;
}

/**
 * CPU µs per call (user + system, `process.cpuUsage`), best of `rounds` (7) rounds, scenarios
 * interleaved round by round: on a shared, loaded machine CPU time is far steadier than
 * wall time, interleaving spreads load and GC phases evenly, and the minimum drops outliers.
 */
async function measure(scenarios: Scenario[], rounds = 7): Promise<number[]> {
  for (const { iterations, run } of scenarios)
    for (let i = 0; i < Math.min(100, iterations); i += 1) await run();
  const best = scenarios.map(() => Number.POSITIVE_INFINITY);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, { iterations, run }] of scenarios.entries()) {
      const started = process.cpuUsage();
      for (let i = 0; i < iterations; i += 1) await run();
      const used = process.cpuUsage(started);
      best[index] = Math.min(best[index] as number, (used.user + used.system) / iterations);
    }
  }
  for (const [index, { name }] of scenarios.entries())
    console.log(`${name.padEnd(34)} ${(best[index] as number).toFixed(1)} µs CPU`);
  return best;
}

const to = { to: "bench" };
const short = "Hello **world**, a short reply.";
const before = ids;
await adapter.send({ text: longText }, to);
const chunks = ids - before;
const longTree = parseReplyMarkdown(longText);
const [text, media, long, shortParse, longParse, longPlan] = (await measure([
  { name: "text (short)", iterations: 500, run: () => adapter.send({ text: short }, to) },
  {
    name: "media (inline PNG, caption)",
    iterations: 300,
    run: () => adapter.send({ text: "Look", media: [{ mimeType: "image/png", data: image }] }, to),
  },
  {
    name: `long text (${longText.length} chars)`,
    iterations: 10,
    run: () => adapter.send({ text: longText }, to),
  },
  { name: "parse only (short)", iterations: 500, run: () => parseReplyMarkdown(short) },
  { name: "parse only (long)", iterations: 10, run: () => parseReplyMarkdown(longText) },
  {
    name: "plan only (long, parsed once)",
    iterations: 10,
    run: () =>
      planDelivery({ tree: longTree, media: [], audioAsVoice: false }, adapter.capabilities, renderer),
  },
])) as [number, number, number, number, number, number];
const [richParse, megabyteParse] = (await measure([
  { name: `parse only (rich, ${rich.length} chars)`, iterations: 2000, run: () => parseReplyMarkdown(rich) },
  { name: "parse only (1 MB)", iterations: 1, run: () => parseReplyMarkdown(megabyteText) },
])) as [number, number];
/** micromark on the same texts: fewer rounds, its 1 MB parse takes seconds. */
const [microShort, microRich, microLong, microMegabyte] = (await measure(
  [
    { name: "micromark (short)", iterations: 200, run: () => parseWithMicromark(short) },
    { name: "micromark (rich)", iterations: 200, run: () => parseWithMicromark(rich) },
    { name: "micromark (long)", iterations: 5, run: () => parseWithMicromark(longText) },
    { name: "micromark (1 MB)", iterations: 1, run: () => parseWithMicromark(megabyteText) },
  ],
  2,
)) as [number, number, number, number];

const round = (value: number): number => Number(value.toFixed(1));
const results = {
  node: process.version,
  date: new Date().toISOString().slice(0, 10),
  unit: "CPU µs per send (best of 7 interleaved rounds)",
  loadAverage: (await import("node:os")).loadavg()[0],
  textMessageUs: round(text),
  mediaMessageUs: round(media),
  longText: { chars: longText.length, chunks, perSendUs: round(long), perChunkUs: round(long / chunks) },
  markdownParseUs: {
    parser: "markdown-it",
    short: round(shortParse),
    rich: round(richParse),
    long: round(longParse),
    megabyte: round(megabyteParse),
  },
  markdownParseBeforeUs: {
    parser: "micromark (mdast-util-from-markdown)",
    short: round(microShort),
    rich: round(microRich),
    long: round(microLong),
    megabyte: round(microMegabyte),
  },
  engineWithoutParseUs: { text: round(text - shortParse) },
  planLongUs: round(longPlan),
};
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(results);
console.log("baseline:", baseline);
if (results.engineWithoutParseUs.text > GOAL_ENGINE_TEXT_US) {
  console.log(`goal missed: engine work per short text above ${GOAL_ENGINE_TEXT_US} µs`);
  process.exitCode = 1;
} else console.log(`goal met: engine work per short text ≤ ${GOAL_ENGINE_TEXT_US} µs`);
