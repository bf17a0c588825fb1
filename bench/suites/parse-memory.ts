/**
 * Memory of parsing one 1 MB hostile reply (@outbox/conformance's families) to its tree, each
 * family in a fresh child process (with `--expose-gc`, so the baseline is taken after a
 * collection): the peak RSS growth while parsing (the process's peak RSS, after a warm-up at
 * an eighth of the size, over its RSS just before) and the heap the tree keeps after a
 * collection. Goal: a few times the text's size; gated absolutely at a bound the token-based
 * parse (280-350 MB of peak growth for the marker families) broke.
 */
import { fileURLToPath } from "node:url";
import { type HostileFamilyName, hostileMarkdown } from "@outbox/conformance";
import { replyTree } from "../../packages/core/src/markdown/parse-reply-markdown.js";
import type { Metric } from "../support/metrics.js";
import { spawnSelf } from "../support/spawn-self.js";
import { round } from "../support/stats.js";

const MB = 1024 * 1024;
/** Children measuring at once (each is one process; the machine is shared). */
const PARALLEL = 2;

/** What one child measured, in MB. */
interface ParseMemory {
  peakMb: number;
  treeMb: number;
}

/** Child process: parse one family at 1 MB and print what it cost in memory. */
function child(family: HostileFamilyName): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --expose-gc");
  const text = hostileMarkdown[family](MB);
  replyTree(hostileMarkdown[family](MB / 8));
  gc();
  const rss = process.memoryUsage.rss();
  const heap = process.memoryUsage().heapUsed;
  const tree = replyTree(text);
  const peak = process.resourceUsage().maxRSS * 1024;
  gc();
  const kept = process.memoryUsage().heapUsed;
  const measured: ParseMemory = {
    peakMb: round(Math.max(0, peak - rss) / MB, 1),
    treeMb: round(Math.max(0, kept - heap) / MB, 1),
  };
  if (tree.children.length === 0) throw new Error(`${family} parsed to nothing`);
  process.stdout.write(JSON.stringify(measured));
}

async function measure(family: HostileFamilyName): Promise<ParseMemory> {
  return JSON.parse(await spawnSelf(import.meta.url, ["parse-memory-child", family]).done) as ParseMemory;
}

/** `parse.memory.<family>.peakMb|treeMb` for every hostile family at 1 MB (quick runs too: each takes a second). */
export async function parseMemoryMetrics(slug: (name: string) => string): Promise<Metric[]> {
  const families = Object.keys(hostileMarkdown) as HostileFamilyName[];
  const results: ParseMemory[] = [];
  for (let first = 0; first < families.length; first += PARALLEL)
    results.push(...(await Promise.all(families.slice(first, first + PARALLEL).map(measure))));
  return families.flatMap((family, index) => {
    const { peakMb, treeMb } = results[index] as ParseMemory;
    const id = `parse.memory.${slug(family)}`;
    return [
      {
        id: `${id}.peakMb`,
        value: peakMb,
        unit: "MB",
        goal: { op: "<=", target: 4 },
        max: 160,
        note: `${family}: peak RSS growth parsing 1 MB (replyTree)`,
      },
      {
        id: `${id}.treeMb`,
        value: treeMb,
        unit: "MB",
        max: 80,
        note: `${family}: heap the 1 MB reply's tree keeps after a collection`,
      },
    ] satisfies Metric[];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "parse-memory-child")
  child(process.argv[3] as HostileFamilyName);
