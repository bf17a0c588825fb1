/**
 * `pnpm bench queue --chaos`: @outbox/queue under faults, on the Telegram and Slack emulators
 * enforcing their limits (in this process, behind a recording proxy): worker processes killed
 * with SIGKILL at seeded random moments (so in pacing waits, mid-request, between journal
 * writes), Redis frozen (SIGSTOP) for longer than the job lock once, and 5% of the platform
 * calls answered by a dropped connection after the emulator processed them. Every reply's
 * parts carry markers; `checkHistory` (@outbox/conformance) judges what the chats show against
 * the receipts. Gated at 0 (absolute): duplicates, silent losses, chats out of order, hung
 * receipts. Reported: ambiguous parts, the checker's other counts, wall time over the floor.
 */
import { createOutbox } from "@outbox/queue";
import {
  enqueueJudged,
  judge,
  markersOf,
  type Sent,
  startFaultPlatform,
} from "../../packages/queue/test/support/history.js";
import { startRedis } from "../../packages/queue/test/support/redis-server.js";
import { startWorkerProcess, type WorkerProcess } from "../../packages/queue/test/support/worker-child.js";
import type { Metric } from "../support/metrics.js";
import { round } from "../support/stats.js";
import { floorMs } from "./load.js";

type Platform = "telegram" | "slack";

/** The size of a chaos run. */
export interface ChaosSize {
  replies: number;
  chats: number;
  workers: number;
  kills: number;
}

const LOCK = { lockDurationMs: 3000, stalledIntervalMs: 500 };
/** How long the receipts may take once every fault is over, before they count as hung. */
const SETTLE_MS = 90_000;

/** A small seeded PRNG (mulberry32), so a run's faults can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One chaos run on one platform; its figures. */
export async function chaosRun(platform: Platform, size: ChaosSize, seed = 21): Promise<Metric[]> {
  const next = random(seed);
  const resets = random(seed + 1);
  const redis = await startRedis({ aof: true });
  const target = await startFaultPlatform(platform, size.chats, {
    resetAfterProcessed: (body) => /M\d+x\d+Q/.test(body) && resets() < 0.05,
  });
  const prefix = "chaos";
  const spec = { redis: redis.url, prefix, ...target.spec, ...LOCK };
  const outbox = await createOutbox({
    adapters: { [platform]: producerOnly },
    connection: redis.url,
    prefix,
  });
  const workers: WorkerProcess[] = await Promise.all(
    Array.from({ length: size.workers }, () => startWorkerProcess(spec)),
  );
  try {
    const sent: Sent[] = Array.from({ length: size.replies }, (_, n) => ({
      chat: target.chats[n % size.chats] as string,
      markers: markersOf(n, 1 + Math.floor(next() * 3)),
    }));
    const started = performance.now();
    const { settled } = await enqueueJudged(outbox, target, sent);
    let done = false;
    void settled.then(() => {
      done = true;
    });
    // Kills at seeded moments, the Redis outage past the lock halfway through them.
    for (let kill = 0; kill < size.kills && !done; kill += 1) {
      await sleep(1000 + next() * 2500);
      if (kill === Math.floor(size.kills / 2)) {
        redis.pause();
        await sleep(LOCK.lockDurationMs + 1500);
        redis.resume();
      }
      const victim = Math.floor(next() * workers.length);
      (workers[victim] as WorkerProcess).child.kill("SIGKILL");
      workers[victim] = await startWorkerProcess(spec);
    }
    const faultsOverMs = performance.now() - started;
    await Promise.race([settled, sleep(SETTLE_MS)]);
    const wallMs = performance.now() - started;
    const verdict = judge(target, sent);
    const { counts } = verdict;
    const parts = counts.parts;
    const floor = floorMs(parts, size.chats, platform === "slack" ? "slack" : "private");
    const id = `queue.chaos.${platform}`;
    const note = `${size.replies} replies (${parts} parts) to ${size.chats} chats, ${size.workers} workers, ${size.kills} kills, Redis frozen ${LOCK.lockDurationMs + 1500} ms (lock ${LOCK.lockDurationMs} ms), 5% resets after processing`;
    const zero = (name: string, value: number, what: string): Metric => ({
      id: `${id}.${name}`,
      value,
      unit: "count",
      goal: { op: "<=", target: 0 },
      max: 0,
      note: `${what}; ${note}`,
    });
    const other = counts.phantoms + counts.falseFailures + counts.unreported + counts.unjustifiedAmbiguous;
    for (const violation of verdict.violations.slice(0, 10)) console.log(`    ${violation}`);
    return [
      zero("duplicates", counts.duplicates, "parts the chat shows more than once"),
      zero("silent-losses", counts.silentLosses, "parts neither in the chat nor named in the receipt"),
      zero("out-of-order-chats", counts.outOfOrderChats, "chats showing parts out of order"),
      zero(
        "hung-receipts",
        counts.hungReceipts,
        `receipts unsettled ${SETTLE_MS / 1000} s after the last fault`,
      ),
      {
        id: `${id}.ambiguous`,
        value: counts.ambiguous,
        unit: "count",
        note: `parts reported ambiguous (their request reached the platform); ${note}`,
      },
      {
        id: `${id}.other-violations`,
        value: other,
        unit: "count",
        note: `phantoms ${counts.phantoms}, false failures ${counts.falseFailures}, unreported ${counts.unreported}, ambiguous without a request ${counts.unjustifiedAmbiguous}`,
      },
      {
        id: `${id}.wall-over-floor`,
        value: round(wallMs / Math.max(floor, 1), 2),
        unit: "×",
        note: `wall ${round(wallMs / 1000, 1)} s (faults over at ${round(faultsOverMs / 1000, 1)} s), floor ${round(floor / 1000, 1)} s`,
      },
    ];
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await outbox.close();
    await target.close();
    await redis.stop();
  }
}

/** The producer only queues: it never builds an adapter. */
export function producerOnly(): never {
  throw new Error("the producer does not deliver");
}
