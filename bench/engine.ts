/**
 * Engine overhead per operation on an in-memory transport (no network, no pacing): µs per
 * `send` of a short text, of a media message with inline media (load + sniff + plan +
 * execute), and of a long Markdown reply split into chunks (µs per send and per chunk).
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
  type Transport,
} from "@outbox/core";
import { png } from "../packages/core/test/engine/support/media-bytes.js";
import { testCapabilities } from "../packages/core/test/engine/support/recording-transport.js";

const resultsFile = fileURLToPath(new URL("results/engine.json", import.meta.url));

let ids = 0;
const transport: Transport = {
  sendText: async () => ({ id: String(++ids) }),
  sendMedia: async () => ({ id: String(++ids) }),
  sendAlbum: async (op) => ({ id: String(++ids), memberIds: op.items.map(() => String(++ids)) }),
};
const definition: AdapterDefinition = {
  name: "bench",
  capabilities: testCapabilities({
    text: { maxLength: 4096, format: "plain" },
    caption: { maxLength: 1024 },
  }),
  renderer: createPlainRenderer(),
  transport,
};
const adapter = createAdapter(definition);
const image = png(64, 64);
const longText = Array.from(
  { length: 120 },
  (_, i) =>
    `Paragraph ${i}: **bold**, _emphasis_, \`code\`, a [link](https://example.com/${i}) and some words.`,
).join("\n\n");

async function measure(name: string, iterations: number, run: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(200, iterations); i += 1) await run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) await run();
  const micros = Number(process.hrtime.bigint() - started) / 1000 / iterations;
  console.log(`${name.padEnd(34)} ${micros.toFixed(1)} µs`);
  return micros;
}

const to = { to: "bench" };
const text = await measure("text (short)", 5000, () =>
  adapter.send({ text: "Hello **world**, a short reply." }, to),
);
const media = await measure("media (inline PNG, caption)", 2000, () =>
  adapter.send({ text: "Look", media: [{ mimeType: "image/png", data: image }] }, to),
);
const before = ids;
await adapter.send({ text: longText }, to);
const chunks = ids - before;
const long = await measure(`long text (${longText.length} chars)`, 200, () =>
  adapter.send({ text: longText }, to),
);

const shortParse = await measure("parse only (short)", 5000, () =>
  parseReplyMarkdown("Hello **world**, a short reply."),
);
const longParse = await measure("parse only (long)", 200, () => parseReplyMarkdown(longText));

const round = (value: number): number => Number(value.toFixed(1));
const results = {
  node: process.version,
  date: new Date().toISOString().slice(0, 10),
  loadAverage: (await import("node:os")).loadavg()[0],
  textMessageUs: round(text),
  mediaMessageUs: round(media),
  longText: { chars: longText.length, chunks, perSendUs: round(long), perChunkUs: round(long / chunks) },
  markdownParseUs: { short: round(shortParse), long: round(longParse) },
  engineWithoutParseUs: { text: round(text - shortParse), long: round(long - longParse) },
};
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.log(results);
