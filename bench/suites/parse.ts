/**
 * Protocol parser throughput and linearity: `parseReply` (Markdown images on) on plain
 * prose, directive-dense replies and adversarial families. Per family: MB/s at the large
 * size and the time ratio large / small (10× the input). Times are the fastest of several
 * interleaved rounds; the small time is the mean over ten distinct small inputs (the same
 * memory footprint as one large input, so the ratio measures growth, not cache fit); the
 * linearity is the median of the per-round ratios (a ratio of two minimums swung from 1 to
 * 18 between runs on the shared machine).
 * Goals: 1 MB in under 100 ms; 10× the input at most 12× the time (gated).
 * Then hostile Markdown through every adapter's planner (see hostile.ts), and the memory of
 * parsing each hostile family at 1 MB (see parse-memory.ts).
 */
import { fill } from "@outbox/conformance";
import { parseReply } from "../../packages/core/src/parse/index.js";
import type { Metric, Suite } from "../support/metrics.js";
import { round, stats } from "../support/stats.js";
import { hostileMetrics } from "./hostile.js";
import { parseMemoryMetrics } from "./parse-memory.js";

const KB = 1024;

const families: Record<string, (size: number) => string> = {
  "plain prose": (size) =>
    fill(size, (i) =>
      i % 8 === 7 ? "\n\n" : "The quick brown fox jumps over the lazy dog, again and again. ",
    ),
  "directive-dense": (size) =>
    fill(
      size,
      (i) =>
        `Here is item ${i} [[reply_to:${i}]] with \`code ${i}\` and [[audio_as_voice]].\n` +
        `MEDIA:https://cdn.example.com/img/${i}.png\nMEDIA:./out/${i}.png caption ${i}\n` +
        `[embed ref="cv_${i}" title="T" height="300" /] ![alt](https://example.com/${i}.jpg "t")\n` +
        "```\nMEDIA:/etc/passwd [[reply_to_current]]\n```\n\n",
    ),
  "backtick runs after a tag": (size) =>
    `[[audio_as_voice]] ${fill(size, (i) => `${"`".repeat((i % 97) + 1)} x `)}`,
  "MEDIA: then closing punctuation": (size) =>
    `MEDIA:https://example.com/a.png${fill(size, () => ")]}\"'`,\\")}`,
  "long run of spaces": (size) => `[[audio_as_voice]] a${" ".repeat(size)}b`,
  "unclosed [[reply_to:": (size) => fill(size, () => "[[reply_to:"),
  "tiny fenced blocks": (size) => fill(size, () => "```\nMEDIA:/x.png [[audio_as_voice]]\n```\n"),
  "unclosed ~~~~ line": (size) =>
    `${"~".repeat(80)}\n${fill(size, () => "MEDIA:/a.png [[audio_as_voice]]\n")}`,
  "1 MB of [[": (size) => fill(size, () => "[["),
  "nested brackets": (size) => `${"[".repeat(size / 2)}${"]".repeat(size / 2)}`,
  "nested images": (size) => `${"![".repeat(size / 4)}${"](https://example.com/a.png)".repeat(size / 56)}`,
  "unclosed [embed": (size) => fill(size, () => '[embed url="/x" title="'),
};

/** Time to parse every text, in ms. */
function timeMs(texts: readonly string[]): number {
  const started = process.hrtime.bigint();
  for (const text of texts) parseReply(text, { markdownImages: true });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const slug = (family: string) => family.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "");

/** The parse suite. */
export const parseSuite: Suite = {
  name: "parse",
  async run({ quick }) {
    const large = quick ? 100 * KB : 1024 * KB;
    const rounds = quick ? 2 : 12;
    const metrics: Metric[] = [];
    for (const [family, make] of Object.entries(families)) {
      const small = Array.from({ length: 10 }, () => make(large / 10));
      const big = make(large);
      let bigMs = Number.POSITIVE_INFINITY;
      const ratios: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const smallNow = timeMs(small) / small.length;
        const bigNow = timeMs([big]);
        ratios.push(bigNow / smallNow);
        bigMs = Math.min(bigMs, bigNow);
      }
      const id = `parse.${slug(family)}`;
      const mbPerSecond = big.length / (1024 * KB) / (bigMs / 1000);
      metrics.push(
        {
          id: `${id}.mbPerSecond`,
          value: round(mbPerSecond, 1),
          unit: "MB/s",
          note: `${family}, ${large / KB} KB input`,
        },
        {
          id: `${id}.msPerMb`,
          value: round(1000 / mbPerSecond, 1),
          unit: "ms",
          goal: { op: "<=", target: 100 },
          note: "time to parse 1 MB",
        },
        {
          id: `${id}.linearity`,
          // Median of the per-round ratios: one disturbed measurement cannot make it.
          value: round(stats(ratios).median, 2),
          unit: "×",
          spread: round(stats(ratios).spread),
          goal: { op: "<=", target: 12 },
          gate: true,
          note: "time of 10× the input over time of the input",
        },
      );
    }
    metrics.push(...hostileMetrics(quick), ...(await parseMemoryMetrics(slug)));
    return metrics;
  },
};
