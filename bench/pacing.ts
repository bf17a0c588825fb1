/**
 * Pacing efficiency: 200 messages to 20 targets under Telegram-like limits (per chat
 * 1/s with a burst of 3, 30/s overall) on a virtual clock, against a strict fake
 * platform that enforces the same limits with 429s. Reports the virtual time to deliver
 * everything over the theoretical minimum, and the 429 count, with the pacer and
 * without it (engine retries only). Two shapes: 200 concurrent one-message sends, and
 * 20 concurrent sends of a 10-chunk plan.
 *
 * Run: npx tsx --conditions=source bench/pacing.ts
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  createAdapter,
  createManualClock,
  createPlainRenderer,
  type Operation,
  type RateLimit,
} from "@outbox/core";
import { testCapabilities } from "../packages/core/test/engine/support/recording-transport.js";
import { createStrictPlatform } from "../packages/core/test/engine/support/strict-platform.js";
import { readBaseline } from "./support/baseline.js";

const resultsFile = fileURLToPath(new URL("results/pacing.json", import.meta.url));
const limits: RateLimit[] = [
  { scope: "target", limit: 1, intervalMs: 1_000, burst: 3 },
  { scope: "global", limit: 30, intervalMs: 1_000 },
];
const TARGETS = 20;
const PER_TARGET = 10;
const TOTAL = TARGETS * PER_TARGET;
/** Last message of a target can go at (n - burst) / rate; globally at (N - burst) / rate. */
const minimumMs = Math.max(((PER_TARGET - 3) / 1) * 1_000, ((TOTAL - 30) / 30) * 1_000);

async function scenario(shape: "messages" | "plans", paced: boolean) {
  const clock = createManualClock();
  const platform = createStrictPlatform(limits, clock);
  let ids = 0;
  let lastAt = 0;
  const deliver = async (op: Operation) => {
    platform.admit(op);
    lastAt = clock.now();
    return { id: String(++ids) };
  };
  const adapter = createAdapter({
    name: "strict",
    capabilities: testCapabilities({
      rateLimits: paced ? limits : [],
      text: { maxLength: 20, format: "plain" },
    }),
    renderer: createPlainRenderer(),
    transport: { sendText: deliver, sendMedia: deliver, sendAlbum: deliver },
    clock,
    retry: { maxRetries: 20 },
  });
  const tenChunks = Array.from({ length: PER_TARGET }, (_, i) => `chunk number ${i}`).join("\n\n");
  const sends =
    shape === "messages"
      ? Array.from({ length: TOTAL }, (_, i) =>
          adapter.send({ text: `message ${i}` }, { to: `chat${i % TARGETS}` }),
        )
      : Array.from({ length: TARGETS }, (_, i) => adapter.send({ text: tenChunks }, { to: `chat${i}` }));
  const receipts = await clock.run(Promise.all(sends));
  const delivered = receipts.reduce((n, r) => n + r.messages.length, 0);
  return {
    shape,
    paced,
    delivered,
    /** Virtual time of the last delivery. */
    virtualMs: lastAt,
    overMinimum: Number((lastAt / minimumMs).toFixed(4)),
    rateLimited429: platform.rejected,
  };
}

/** Goal: with the pacer, no 429 and within 5% of the theoretical minimum. */
const GOAL_OVER_MINIMUM = 1.05;
const baseline = readBaseline<{ runs: Array<{ overMinimum: number }> }>(resultsFile);
const runs = [];
for (const shape of ["messages", "plans"] as const)
  for (const paced of [true, false]) runs.push(await scenario(shape, paced));
const results = {
  node: process.version,
  limits,
  targets: TARGETS,
  messages: TOTAL,
  theoreticalMinimumMs: minimumMs,
  runs,
};
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
console.table(runs.map((run, i) => ({ ...run, baselineOverMinimum: baseline?.runs[i]?.overMinimum })));
const missed = runs.filter(
  (run) => run.paced && (run.rateLimited429 > 0 || run.overMinimum > GOAL_OVER_MINIMUM),
);
if (missed.length > 0) {
  console.log(`goal missed: paced runs must meet no 429 and stay within ${GOAL_OVER_MINIMUM}× the minimum`);
  process.exitCode = 1;
} else console.log(`goal met: paced runs meet no 429 and finish within ${GOAL_OVER_MINIMUM}× the minimum`);
