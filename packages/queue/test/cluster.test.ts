/**
 * The outbox on a real Redis Cluster (three masters, no replicas, AOF fsynced always):
 * every Lua script and transaction keeps its keys in one slot whatever the names (so no
 * CROSSSLOT), the partitions spread evenly over the masters, replies are delivered once each
 * in per-chat order, and a master killed with SIGKILL under load and started again from its
 * AOF loses nothing silently and duplicates nothing. Judged by `checkHistory` on Telegram's
 * emulator (its limits enforced).
 */
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOutbox } from "../src/index.js";
import { jobIdOf, keysOf } from "../src/redis/keys.js";
import { partitionTags, slotOf } from "../src/redis/slots.js";
import * as history from "./support/history.js";
import { adapterFactories } from "./support/platforms.js";
import { clusterMissing, type RedisCluster, startRedisCluster } from "./support/redis-cluster.js";

let cluster: RedisCluster;

/** Names an attacker or an odd configuration could choose, braces included. */
const HOSTILE = ["plain", "{", "}", "{}", "}{", "{tag}", "a{b}c", "x}y{z", "{{}}", "é{ü}", ""];

describe.skipIf(clusterMissing)(`outbox on a Redis Cluster ${clusterMissing ?? ""}`, () => {
  beforeAll(async () => {
    cluster = await startRedisCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  it("keeps every script's keys in one slot, as the cluster computes slots", async () => {
    const node = new Redis(cluster.nodes[0] as { host: string; port: number });
    try {
      const groups: string[][] = [];
      for (const partitions of [1, 3, 32, 100]) {
        const keys = keysOf("outbox", partitionTags(partitions));
        for (let n = 0; n < partitions; n += 1)
          for (const key of HOSTILE.map((name) => `k${name}`)) {
            // The fenced journal write: BullMQ's lock of the job and the journal.
            const queue = `outbox:${keys.queue(n)}`;
            groups.push([
              `${queue}:${jobIdOf(key)}:lock`,
              keys.journal(key, n),
              `${queue}:wait`,
              `${queue}:meta`,
            ]);
            // An account's turns: tagging, parking, draining and resuming its jobs.
            groups.push([
              keys.turns(n),
              keys.paused(n),
              keys.held(n, `telegram@${encodeURIComponent(key)}`, "drained"),
              keys.held(n, `telegram@${encodeURIComponent(key)}`, "parked"),
            ]);
          }
        // The rate gate takes a platform's global and per-chat buckets in one script.
        for (const platform of HOSTILE)
          groups.push([
            keys.bucket(platform, 0),
            ...HOSTILE.map((to) => keys.bucket(platform, 1, `-100${to}`)),
          ]);
      }
      for (const group of groups) expect(new Set(group.map(slotOf)), group.join(" ")).toHaveLength(1);
      // The slots computed here are the cluster's own.
      const sample = [
        ...groups.flat().filter((_, i) => i % 7 === 0),
        ...HOSTILE.map((name) => `a${name}b{}`),
      ];
      const slots = await Promise.all(sample.map((key) => node.cluster("KEYSLOT", key) as Promise<number>));
      expect(slots).toEqual(sample.map(slotOf));
      // 32 partitions over 3 masters of equal slot ranges: 11, 11 and 10.
      const masters = await Promise.all(partitionTags(32).map((tag) => cluster.masterOf(slotOf(tag))));
      const perMaster = [...new Set(masters)].map((port) => masters.filter((m) => m === port).length);
      expect(perMaster.sort()).toEqual([10, 11, 11]);
    } finally {
      node.disconnect();
    }
  });

  it("delivers once each, in per-chat order, with hostile keys", async () => {
    const platform = await history.startFaultPlatform("telegram", 12);
    // The producer on an ioredis Cluster of the integrator's (never closed by the outbox),
    // the workers on the nodes' list.
    const given = new Cluster(cluster.nodes);
    const producer = await createOutbox({
      adapters: adapterFactories(platform.spec),
      connection: given,
      prefix: "deliver",
      partitions: 12,
    });
    const consumer = await createOutbox({
      adapters: adapterFactories(platform.spec),
      connection: { cluster: cluster.nodes },
      prefix: "deliver",
      partitions: 12,
    });
    const workers = await Promise.all([consumer.createWorker(), consumer.createWorker()]);
    try {
      const sent = history.twoPartReplies(platform, 24);
      const { settled } = await history.enqueueJudged(producer, platform, sent, (_, n) => ({
        idempotencyKey: `${HOSTILE[n % HOSTILE.length]}-${n}`,
      }));
      await settled;
      const verdict = history.judge(platform, sent);
      expect(verdict.violations).toEqual([]);
      expect(verdict.counts).toMatchObject({ delivered: 48, ambiguous: 0 });
      expect(sent.map((entry) => entry.receipt?.status)).toEqual(sent.map(() => "delivered"));
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      await producer.close();
      await consumer.close();
      await platform.close();
    }
    expect(given.status).toBe("ready");
    given.disconnect();
  });

  it("a master killed under load and restarted from its AOF: nothing duplicated or lost", async () => {
    const platform = await history.startFaultPlatform("telegram", 20);
    const connection = { cluster: cluster.nodes };
    const outbox = await createOutbox({
      adapters: adapterFactories(platform.spec),
      connection,
      prefix: "restart",
      partitions: 12,
    });
    const workers = await Promise.all([outbox.createWorker(), outbox.createWorker()]);
    try {
      const sent = history.twoPartReplies(platform, 40);
      const { settled } = await history.enqueueJudged(outbox, platform, sent);
      // The master of Telegram's rate buckets: every part asks it for a token, so every send
      // waits on it while it is down; it also holds a third of the partitions.
      const bucket = keysOf("restart", partitionTags(12)).bucket("telegram", 0);
      const victim = await cluster.masterOf(slotOf(bucket));
      const done = () => sent.filter((entry) => entry.receipt !== undefined).length;
      await vi.waitFor(() => expect(done()).toBeGreaterThanOrEqual(5), { timeout: 60_000, interval: 20 });
      const before = done();
      // Down for 3 s (connections refused): commands to its slots wait for it, then go on.
      await cluster.crash(victim, 3000);
      await settled;
      const verdict = history.judge(platform, sent);
      expect(verdict.violations).toEqual([]);
      expect(verdict.counts).toMatchObject({ duplicates: 0, silentLosses: 0, hungReceipts: 0 });
      // The master died mid-run: each chat's second reply waits about a second for its
      // chat's token (1 a second after a burst of 3), so five settled cannot mean all.
      expect(before).toBeLessThan(sent.length);
      expect(verdict.counts.delivered).toBe(2 * sent.length);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
      await outbox.close();
      await platform.close();
    }
  });
});
