/**
 * `pnpm bench`: runs every suite in this process (emulators and RSS measurements in child
 * processes), writes bench/results/latest.json and latest.md, reports goals (met or not,
 * never failing the run) and fails only when a regression gate fails against the committed
 * bench/results/baseline.json. `--quick`: about a minute, and only the gates a loaded machine
 * cannot move: absolute ones (`max`: duplicates, losses, 429s under the limits…) and exact
 * counts (HTTP calls per reply); CI runs it on every change. Either run fails when a gate CI
 * relies on (support/required-gates.ts) was not reported, or reported ungated.
 * `--update-baseline`: write the figures of this (full) run as the new baseline.
 * Suite names as arguments run only those (`pnpm bench telegram load`).
 * See bench/README.md.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { coldStartSuite } from "./suites/cold-start.js";
import { discordSuite } from "./suites/discord.js";
import { engineSuite } from "./suites/engine.js";
import { fleetSuite } from "./suites/fleet.js";
import { googlechatSuite } from "./suites/googlechat.js";
import { loadSuite } from "./suites/load.js";
import { matrixSuite } from "./suites/matrix.js";
import { mediaMemorySuite } from "./suites/media-memory.js";
import { otelSuite } from "./suites/otel.js";
import { parseSuite } from "./suites/parse.js";
import { peersSuite } from "./suites/peers.js";
import { queueSuite } from "./suites/queue.js";
import { rssSuite } from "./suites/rss.js";
import { slackSuite } from "./suites/slack.js";
import { streamSuite } from "./suites/stream.js";
import { teamsSuite } from "./suites/teams.js";
import { telegramSuite } from "./suites/telegram.js";
import { whatsappSuite } from "./suites/whatsapp.js";
import { checkGates, goalMet, type Metric, type Suite } from "./support/metrics.js";
import { markdownReport, type RunResult } from "./support/report.js";
import { missingGates } from "./support/required-gates.js";
import { round } from "./support/stats.js";

const results = fileURLToPath(new URL("results/", import.meta.url));
const suites: Suite[] = [
  parseSuite,
  engineSuite,
  streamSuite,
  telegramSuite,
  slackSuite,
  discordSuite,
  whatsappSuite,
  matrixSuite,
  teamsSuite,
  googlechatSuite,
  rssSuite,
  mediaMemorySuite,
  otelSuite,
  loadSuite,
  queueSuite,
  fleetSuite,
  peersSuite,
  coldStartSuite,
];

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const update = args.includes("--update-baseline");
const scale = args.includes("--scale");
const chaos = args.includes("--chaos");
const only = args.filter((arg) => !arg.startsWith("--"));
if (update && (quick || only.length > 0)) {
  console.error("--update-baseline needs a full run of every suite (no --quick, no suite names)");
  process.exit(2);
}

const run: RunResult = {
  mode: quick ? "quick" : "full",
  node: process.version,
  date: new Date().toISOString(),
  loadAverage: round(loadavg()[0] ?? 0, 2),
  seconds: {},
  metrics: [],
  errors: {},
};
for (const suite of suites.filter((s) => only.length === 0 || only.includes(s.name))) {
  const started = performance.now();
  console.log(`=== ${suite.name}`);
  try {
    const metrics = await suite.run({ quick, scale, chaos });
    run.metrics.push(...metrics);
    for (const metric of metrics) console.log(line(metric));
  } catch (error) {
    run.errors[suite.name] = error instanceof Error ? error.message : String(error);
    console.error(`${suite.name} failed:`, error);
  }
  run.seconds[suite.name] = round((performance.now() - started) / 1000, 1);
}

const baselineFile = `${results}baseline.json`;
const baseline = existsSync(baselineFile)
  ? (JSON.parse(readFileSync(baselineFile, "utf8")) as RunResult)
  : undefined;
const gates = checkGates(run.metrics, baseline?.metrics ?? [], { quick });
// Suites that ran to the end are held to their required gates; `--chaos` runs only the queue's
// fault scenario, so the queue's other gates are not asked of it.
const finished = new Set(Object.keys(run.seconds).filter((name) => !(name in run.errors)));
if (chaos) finished.delete("queue");
const missing = missingGates(run.metrics, finished);
mkdirSync(results, { recursive: true });
writeFileSync(`${results}latest.json`, `${JSON.stringify({ ...run, gates, missing }, null, 2)}\n`);
const report = markdownReport(run, gates);
writeFileSync(`${results}latest.md`, report);
if (update) writeFileSync(baselineFile, `${JSON.stringify(run, null, 2)}\n`);

const goals = run.metrics.filter((metric) => metric.goal);
const met = goals.filter((metric) => goalMet(metric)).length;
const failedGates = gates.filter((gate) => !gate.passed);
for (const gate of failedGates)
  console.log(
    `GATE FAILED ${gate.id}: ${gate.value} against baseline ${gate.baseline} (+${Math.round(gate.tolerance * 100)}% allowed)`,
  );
for (const gate of missing) console.log(`GATE MISSING ${gate}`);
console.log(
  `\ngoals: ${met} of ${goals.length} met (reported, never failing); gates: ${gates.length - failedGates.length} of ${gates.length} passed` +
    `${quick ? " (quick run: absolute gates and exact counts only)" : ""}; required gates missing: ${missing.length}; suites failed: ${Object.keys(run.errors).length}` +
    `${update ? "; baseline updated" : ""}\nreport: bench/results/latest.md`,
);
process.exit(failedGates.length > 0 || missing.length > 0 || Object.keys(run.errors).length > 0 ? 1 : 0);

function line(metric: Metric): string {
  const met = goalMet(metric);
  const goal = metric.goal
    ? `  goal ${metric.goal.op} ${metric.goal.target}: ${met ? "met" : "NOT MET"}`
    : "";
  const spread = metric.spread !== undefined ? ` ±${Math.round(metric.spread * 100)}%` : "";
  return `${metric.id.padEnd(44)} ${`${metric.value} ${metric.unit}${spread}`.padEnd(18)}${goal}  ${metric.note ?? ""}`;
}
