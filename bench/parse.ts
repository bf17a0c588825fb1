/**
 * Protocol parser throughput and linearity: `parseReply` (Markdown images on) on plain
 * prose, on directive-dense replies, and on adversarial inputs. For each family it reports
 * MB/s at 1 MB, the time at 100 KB and at 1 MB, and their ratio. Goals: every 1 MB input
 * parses in under 100 ms, and 10× the input costs at most 12× the time.
 *
 * Times are the fastest of many rounds, sizes interleaved, so that other work on the
 * machine disturbs them as little as possible (the script also asks for a higher
 * scheduling priority when it may). The 100 KB time is the mean over ten distinct 100 KB
 * inputs parsed back to back: the same memory footprint as one 1 MB input, so the ratio
 * measures how the algorithm grows, not whether the input fits in the CPU cache.
 *
 * Run: npx tsx --conditions=source bench/parse.ts  (writes bench/results/parse.json)
 */
import { writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { parseReply } from "../packages/core/src/parse/index.js";

const resultsFile = fileURLToPath(new URL("results/parse.json", import.meta.url));
const KB = 1024;
const MB = 1024 * KB;
const MAX_MS_PER_MB = 100;
const MAX_RATIO = 12;

/** Repeat `unit` (or units made by `make(i)`) until the text reaches `size` characters. */
function fill(size: number, make: (i: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < size; i++) {
    const part = make(i);
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, size);
}

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

/** Fastest of `runs` parses, in ms (the minimum is the least disturbed by other load). */
/** Time to parse every text, in ms. */
function timeMs(texts: readonly string[]): number {
  const started = process.hrtime.bigint();
  for (const text of texts) parseReply(text, { markdownImages: true });
  return Number(process.hrtime.bigint() - started) / 1e6;
}

try {
  setPriority(-10);
} catch {
  // not allowed: measure at normal priority
}

interface Row {
  family: string;
  mbPerSecond: number;
  ms100k: number;
  ms1m: number;
  ratio: number;
  ok: boolean;
}

const rows: Row[] = [];
for (const [family, make] of Object.entries(families)) {
  const small = Array.from({ length: 10 }, () => make(100 * KB));
  const large = make(MB);
  let ms100k = Number.POSITIVE_INFINITY;
  let ms1m = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 12; round++) {
    ms100k = Math.min(ms100k, timeMs(small) / small.length);
    ms1m = Math.min(ms1m, timeMs([large]));
  }
  const ratio = ms1m / ms100k;
  rows.push({
    family,
    mbPerSecond: large.length / MB / (ms1m / 1000),
    ms100k,
    ms1m,
    ratio,
    ok: ms1m < MAX_MS_PER_MB && ratio <= MAX_RATIO,
  });
}

console.log(
  `${"family".padEnd(34)} ${"MB/s".padStart(8)} ${"100 KB ms".padStart(10)} ${"1 MB ms".padStart(9)} ${"ratio".padStart(6)}`,
);
for (const row of rows) {
  console.log(
    `${row.family.padEnd(34)} ${row.mbPerSecond.toFixed(1).padStart(8)} ${row.ms100k.toFixed(2).padStart(10)} ${row.ms1m
      .toFixed(2)
      .padStart(9)} ${row.ratio.toFixed(1).padStart(6)}${row.ok ? "" : "  MISSED"}`,
  );
}
const round = (value: number): number => Math.round(value * 100) / 100;
writeFileSync(
  resultsFile,
  `${JSON.stringify(
    {
      goals: { maxMsPerMb: MAX_MS_PER_MB, maxRatio10x: MAX_RATIO },
      node: process.version,
      families: rows.map((row) => ({
        family: row.family,
        mbPerSecond: round(row.mbPerSecond),
        ms100k: round(row.ms100k),
        ms1m: round(row.ms1m),
        ratio10x: round(row.ratio),
        ok: row.ok,
      })),
    },
    null,
    2,
  )}\n`,
);
const missed = rows.filter((row) => !row.ok);
if (missed.length > 0) {
  console.error(`missed goals: ${missed.map((row) => row.family).join(", ")}`);
  process.exit(1);
}
