/**
 * The gates CI relies on, named: every run (`--quick` included) must report each of them, and
 * report it gated. Without this list a gate that stops being reported (a metric renamed, a
 * payload dropped, a `max: 0` deleted) passes every run unnoticed, since `checkGates` only
 * judges the metrics it is given.
 */
import type { Metric } from "./metrics.js";

/** What a required metric must carry: an absolute gate (`max`) or an exact gated count. */
export type RequiredKind = "max" | "exact";

const ZERO = ["lost", "duplicates", "refused429"];
const QUEUE = ["duplicates", "lost", "out-of-order-chats", "hung-receipts"];
const CHAOS = ["duplicates", "silent-losses", "out-of-order-chats", "hung-receipts"];
const HTTP_CALLS: Record<string, string[]> = {
  telegram: ["text", "text11k", "photo", "captionedPhoto", "album", "longCaptionPhoto"],
  slack: ["text", "file"],
  discord: ["text", "image"],
  whatsapp: ["text", "file"],
  matrix: ["text", "file"],
  teams: ["text", "image"],
  googlechat: ["text", "image"],
};

/**
 * Each required metric id and what it must carry: messages lost, duplicated or refused with a
 * 429 under each platform's enforced limits; the queue's duplicates, losses, chats out of
 * order and hung receipts, without faults (2 workers, in quick and full runs) and under
 * chaos (Telegram, the run quick mode has); HTTP calls per reply; no heavy dependency loaded
 * on a cold start; the memory of parsing 1 MB of the hostile families that make a node per
 * marker or block.
 */
export const REQUIRED_GATES: ReadonlyMap<string, RequiredKind> = new Map<string, RequiredKind>([
  ...["private", "group", "slack", "discord", "matrix", "whatsapp", "googlechat"].flatMap((kind) =>
    ZERO.map((name) => [`load.${kind}.${name}`, "max"] as const),
  ),
  ...["telegram", "slack"].flatMap((platform) =>
    QUEUE.map((name) => [`queue.${platform}.2w.${name}`, "max"] as const),
  ),
  ...CHAOS.map((name) => [`queue.chaos.telegram.${name}`, "max"] as const),
  ...Object.entries(HTTP_CALLS).flatMap(([suite, payloads]) =>
    payloads.map((payload) => [`${suite}.httpCalls.${payload}`, "exact"] as const),
  ),
  ["cold-start.telegram.heavyLoaded", "max"],
  ...["marker-runs", "alternating-markers", "emphasis-storm", "many-tiny-blocks"].map(
    (family) => [`parse.memory.${family}.peakMb`, "max"] as const,
  ),
]);

/**
 * The required gates a run did not check, each with why: not reported, or reported without
 * its gate. Only the suites that ran are held to theirs (an id's suite is its first segment),
 * so `pnpm bench telegram` is not failed for the load suite's gates.
 */
export function missingGates(
  latest: readonly Metric[],
  ran: ReadonlySet<string>,
  required: ReadonlyMap<string, RequiredKind> = REQUIRED_GATES,
): string[] {
  const reported = new Map(latest.map((metric) => [metric.id, metric]));
  const missing: string[] = [];
  for (const [id, kind] of required) {
    if (!ran.has(id.slice(0, id.indexOf(".")))) continue;
    const metric = reported.get(id);
    if (metric === undefined) missing.push(`${id}: not reported`);
    else if (kind === "max" && metric.max === undefined)
      missing.push(`${id}: reported without its absolute gate (max)`);
    else if (kind === "exact" && !(metric.gate && metric.exact))
      missing.push(`${id}: reported without its exact gate`);
  }
  return missing;
}
