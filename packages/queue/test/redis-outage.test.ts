/**
 * What a producer sees when Redis goes away (issue 21, items 5 and 9): every `receipt`
 * settles, although its result was published while the producer's subscription was down (the
 * subscriber's connection killed with CLIENT KILL at a named step; a real redis-server killed
 * with SIGKILL and restarted from its AOF); and nothing is printed to stderr during an outage:
 * the outbox reports `redis` down and up, once each.
 */

import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOutbox, type RedisStateChange } from "../src/index.js";
import {
  enqueueJudged,
  type FaultPlatform,
  judge,
  startFaultPlatform,
  twoPartReplies,
} from "./support/history.js";
import { adapterFactories } from "./support/platforms.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

let redis: RedisServer;
let platform: FaultPlatform;

describe.skipIf(redisMissing).each(["telegram", "slack"] as const)(
  `%s: Redis outages seen by the producer ${redisMissing ?? ""}`,
  (name) => {
    beforeEach(async () => {
      redis = await startRedis({ aof: true });
      platform = await startFaultPlatform(name, 4);
    });
    afterEach(async () => {
      await platform?.close();
      await redis?.stop();
    });

    /** A producer on the test's Redis, an admin connection that cuts its clients, 8 two-part replies. */
    const producer = async () => ({
      outbox: await createOutbox({
        adapters: adapterFactories(platform.spec),
        connection: redis.url,
        partitions: 4,
      }),
      admin: new Redis(redis.url),
      sent: twoPartReplies(platform, 8),
    });

    it("settles every receipt whose result was published while its subscriber was disconnected", async () => {
      const { outbox, admin, sent } = await producer();
      const { settled } = await enqueueJudged(outbox, platform, sent);
      // The named point: each job's last journal write; the subscriber is cut right before
      // the worker publishes the job's result.
      const worker = await outbox.createWorker({
        onStep: (step) => {
          if (step.kind === "journaled") void admin.client("KILL", "TYPE", "pubsub").catch(() => undefined);
        },
      });
      await settled;
      expect(judge(platform, sent).violations).toEqual([]);
      await worker.close();
      await outbox.close();
      admin.disconnect();
    });

    it("tells `finished` once per delivery although the producer's connections that hear of results were cut before each publish", async () => {
      const { outbox, admin, sent } = await producer();
      const told: string[] = [];
      let everyOne: () => void = () => undefined;
      const allTold = new Promise<void>((resolve) => {
        everyOne = resolve;
      });
      outbox.on("finished", (receipt) => {
        told.push(receipt.id);
        if (told.length === sent.length) everyOne();
      });
      const { settled } = await enqueueJudged(outbox, platform, sent);
      // The named point, as above: right before the worker publishes a result, the producer's
      // subscriber and whatever reads events (a client blocked in XREAD) are cut.
      let cut = 0;
      const cutListeners = async (): Promise<void> => {
        await admin.client("KILL", "TYPE", "pubsub").catch(() => undefined);
        const clients = String(await admin.client("LIST"));
        for (const line of clients.split("\n")) {
          const id = / cmd=xread/.test(line) ? /\bid=(\d+)/.exec(line)?.[1] : undefined;
          if (id !== undefined && (await admin.client("KILL", "ID", id).catch(() => 0)) === 1) cut += 1;
        }
      };
      const worker = await outbox.createWorker({
        onStep: (step) => {
          if (step.kind === "journaled") void cutListeners();
        },
      });
      await settled;
      await allTold;
      expect(cut).toBeGreaterThan(0);
      expect(told.sort()).toEqual(sent.map((entry) => entry.receipt?.id).sort());
      await worker.close();
      await outbox.close();
      admin.disconnect();
    });

    it("settles every receipt across a Redis SIGKILL and restart, and prints nothing meanwhile", async () => {
      const written: string[] = [];
      const write = process.stderr.write.bind(process.stderr);
      const { error, warn } = console;
      const changes: RedisStateChange[] = [];
      const outbox = await createOutbox({
        adapters: adapterFactories(platform.spec),
        connection: redis.url,
        partitions: 4,
      });
      outbox.on("redis", (change) => changes.push(change));
      const sent = twoPartReplies(platform, 12);
      const { settled } = await enqueueJudged(outbox, platform, sent);
      let crashed: Promise<void> | undefined;
      let journaled = 0;
      process.stderr.write = ((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      }) as typeof process.stderr.write;
      // ioredis and BullMQ print through console.error (which vitest reroutes) and stderr.
      console.error = (...args: unknown[]) => void written.push(args.map(String).join(" "));
      console.warn = console.error;
      try {
        const worker = await outbox.createWorker({
          lockDurationMs: 3000,
          stalledIntervalMs: 500,
          onStep: (step) => {
            // Down for 1.5 s after the 6th journal write (mid-run, results already published).
            journaled += step.kind === "journaled" ? 1 : 0;
            if (journaled === 6 && crashed === undefined) crashed = redis.crash(1500);
          },
        });
        await settled;
        await crashed;
        await worker.close();
        await outbox.close();
      } finally {
        process.stderr.write = write;
        Object.assign(console, { error, warn });
      }
      expect(judge(platform, sent).violations).toEqual([]);
      expect(written).toEqual([]);
      expect(changes.map((change) => change.state)).toEqual(["down", "up"]);
      expect(changes[0]?.error).toMatch(/ECONNREFUSED|ECONNRESET|EPIPE|closed/);
    });
  },
);
