/**
 * Redis down around a job's lock (issue 21, item 3): the redis-server is frozen (SIGSTOP) at a
 * named step of a worker's delivery and let go (SIGCONT) after an outage shorter or longer than
 * the job's 3 s lock. Past the lock the job goes to a second worker; the first finds its lock
 * gone at its next fenced journal write and stops before sending another part (its request
 * is held at a proxy until the second worker runs, so both would send at once). Judged by
 * `checkHistory`: every part at most once, none missing silently, ambiguous only when its
 * request reached the platform, per-chat order, every receipt settled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type DeliveryStep, type OutboxWorker } from "../src/index.js";
import {
  enqueueJudged,
  type FaultPlatform,
  judge,
  markersOf,
  type Sent,
  startFaultPlatform,
} from "./support/history.js";
import { adapterFactories } from "./support/platforms.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

const LOCK = { lockDurationMs: 3000, stalledIntervalMs: 500 };

let redis: RedisServer;

/**
 * Four replies (3, 2, 2 and 2 parts) to two chats on one partition; Redis freezes when the
 * first worker first reaches the step `at` (its kind, part and attempt: the first reply's,
 * which the partition runs first), for `outageMs`; a second worker starts once it is back.
 */
async function outage(
  platform: FaultPlatform,
  prefix: string,
  at: Pick<DeliveryStep, "kind" | "part" | "attempt">,
  outageMs: number,
) {
  const outbox = await createOutbox({
    adapters: adapterFactories(platform.spec),
    connection: redis.url,
    prefix,
    partitions: 1,
  });
  const [a, b] = platform.chats as [string, string];
  const sent: Sent[] = [
    { chat: a, markers: markersOf(0, 3) },
    { chat: a, markers: markersOf(1, 2) },
    { chat: b, markers: markersOf(2, 2) },
    { chat: b, markers: markersOf(3, 2) },
  ].map((entry, n) => ({ ...entry, markers: entry.markers.map((m) => `${prefix}${n}${m}`) }));
  const workers: OutboxWorker[] = [];
  try {
    const { settled } = await enqueueJudged(outbox, platform, sent);
    // Past the lock, the first worker's next request for part 1 is held until the job's next
    // attempt runs, so both run at once (the race a fence must win). That attempt may be the
    // second worker's or, once its stale attempt stopped, the first worker's own: the hold is
    // let go at the second worker's first step or at the first `pace` step after the freeze
    // (the stale attempt takes none before its request leaves; a new attempt starts with one).
    const held = outageMs > LOCK.lockDurationMs ? sent[0]?.markers[1] : undefined;
    if (held !== undefined) platform.proxy.hold(held);
    const release = (): void => {
      if (held !== undefined) platform.proxy.release(held);
    };
    let seen = false;
    let froze: () => void = () => undefined;
    const frozen = new Promise<void>((resolve) => {
      froze = resolve;
    });
    workers.push(
      await outbox.createWorker({
        ...LOCK,
        onStep: (step) => {
          if (seen && step.kind === "pace") release();
          if (seen || step.kind !== at.kind || step.part !== at.part || step.attempt !== at.attempt) return;
          seen = true;
          redis.pause();
          froze();
        },
      }),
    );
    await frozen;
    await new Promise((resolve) => setTimeout(resolve, outageMs)); // the outage itself, not a synchronization
    redis.resume();
    workers.push(
      await outbox.createWorker({
        ...LOCK,
        onStep: release,
      }),
    );
    await settled;
    return judge(platform, sent);
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
    await outbox.close();
  }
}

describe.skipIf(redisMissing)(`Redis down around the job lock ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  describe.each(["telegram", "slack", "discord"] as const)("%s", (name) => {
    let platform: FaultPlatform;
    beforeAll(async () => {
      platform = await startFaultPlatform(name, 2);
    });
    afterAll(async () => {
      await platform?.close();
    });

    it("an outage longer than the lock while waiting for part 1's token: the job's next attempt sends it, once", async () => {
      // Part 1's first wait for its token (part 0 is delivered and journaled): nothing of
      // part 1 has left, so the second worker sends it and nothing is ambiguous.
      const verdict = await outage(platform, `${name}long-pace`, { kind: "pace", part: 1, attempt: 0 }, 4500);
      expect(verdict.violations).toEqual([]);
      expect(verdict.counts).toMatchObject({ parts: 9, delivered: 9, ambiguous: 0 });
    });

    it("an outage longer than the lock with part 1's request leaving: ambiguous once (Discord: resent, delivered once), the rest sent once", async () => {
      // Part 1's mark is saved and its request goes; the answer's journal write waits for
      // Redis, finds the lock gone, and the first worker stops.
      const verdict = await outage(platform, `${name}long-send`, { kind: "send", part: 1 }, 4500);
      expect(verdict.violations).toEqual([]);
      if (name === "discord") {
        // The job's next attempt resends part 1 with the same nonce while the first worker's
        // request is let go: Discord answers the message it created, so the chat shows it once
        // and the receipt says delivered.
        expect(verdict.counts).toMatchObject({ parts: 9, delivered: 9, ambiguous: 0, duplicates: 0 });
        expect(platform.proxy.requests(`${name}long-send0M0x1Q`)).toBeGreaterThanOrEqual(2);
        return;
      }
      // Part 1 shows once, or not at all when the platform refused it (a 429 it answered):
      // either way its request reached the platform and its receipt says ambiguous.
      expect(verdict.counts).toMatchObject({ parts: 9, ambiguous: 1 });
      expect(verdict.counts.delivered).toBeGreaterThanOrEqual(8);
    });

    it("an outage shorter than the lock: nothing changes", async () => {
      const verdict = await outage(platform, `${name}short`, { kind: "pace", part: 1, attempt: 0 }, 1000);
      expect(verdict.violations).toEqual([]);
      expect(verdict.counts).toMatchObject({ parts: 9, delivered: 9, ambiguous: 0 });
    });
  });
});
