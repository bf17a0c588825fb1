/**
 * Engine overhead per operation on an in-memory transport (no network, no pacing): client
 * CPU per `send` of a short text, of a media message with inline media (load, sniff, plan,
 * execute) and of an 11 kB Markdown reply split into chunks; and the parse a send makes
 * (`replyTree`: the direct parser, markdown-it when the text needs it), so the engine's own
 * work (send minus that parse) can be read off. Goal: ≤ 4 µs of engine work per short text.
 * Gated: a short send over a markdown-it parse of the same text with positions
 * (`parseReplyMarkdown`), a fixed yardstick of this machine's speed.
 */
import { parseReplyMarkdown } from "@outbox/core";
import { replyTree } from "../../packages/core/src/markdown/parse-reply-markdown.js";
import { png } from "../../packages/core/test/engine/support/media-bytes.js";
import { measure } from "../support/measure.js";
import { memoryAdapter } from "../support/memory-adapter.js";
import { type Metric, ratioMetric, type Suite } from "../support/metrics.js";
import { round, stats } from "../support/stats.js";
import { markdownReply } from "./texts.js";

/** The engine suite. */
export const engineSuite: Suite = {
  name: "engine",
  async run({ quick, slowdown }) {
    const adapter = memoryAdapter({ caption: { maxLength: 1024 } });
    const to = { to: "bench" };
    const short = "Hello **world**, a short reply.";
    const long = markdownReply(11_000).markdown;
    const image = png(64, 64);
    const measured = await measure(
      [
        { name: "text", run: () => adapter.send({ text: short }, to) },
        { name: "parse", run: () => parseReplyMarkdown(short) },
        { name: "tree", run: () => replyTree(short) },
        {
          name: "media",
          run: () => adapter.send({ text: "Look", media: [{ mimeType: "image/png", data: image }] }, to),
        },
        { name: "long", run: () => adapter.send({ text: long }, to) },
      ],
      {
        rounds: quick ? 3 : 9,
        perRound: quick ? 20 : 200,
        warmup: { minBatches: quick ? 1 : 5, maxBatches: quick ? 2 : 30 },
        ...(slowdown ? { slowdown } : {}),
      },
    );
    const us = (name: string) => stats((measured.cpuMs[name] ?? []).map((ms) => ms * 1000));
    const text = us("text");
    const tree = us("tree");
    const metric = (id: string, s: ReturnType<typeof us>, note: string): Metric => ({
      id,
      value: round(s.median, 1),
      unit: "µs",
      spread: round(s.spread),
      note,
    });
    return [
      metric("engine.textUs", text, "client CPU per send of a short text"),
      metric("engine.mediaUs", us("media"), "client CPU per send of a text + inline PNG"),
      metric("engine.longUs", us("long"), "client CPU per send of an 11 kB reply (3 chunks)"),
      {
        id: "engine.textWithoutParseUs",
        value: round(text.median - tree.median, 1),
        unit: "µs",
        goal: { op: "<=", target: 4 },
        note: "engine work per short text (send minus the parse it makes)",
      },
      ratioMetric("engine.textOverParse", measured.cpuMs.text ?? [], measured.cpuMs.parse ?? [], {
        gate: true,
        note: "short send over a markdown-it parse of its text (a yardstick)",
      }),
      {
        id: "engine.warmupOps",
        value: measured.warmup.operations,
        unit: "ops",
        note: `warm-up until settled (${measured.warmup.settled ? "settled" : "cap reached"}); cold ${round(measured.warmup.coldOverSettled, 2)}× settled`,
      },
    ];
  },
};
