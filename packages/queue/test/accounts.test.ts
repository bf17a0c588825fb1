/**
 * Accounts resolved while running: each worker resolves an account on its first job, keeps
 * its adapter while used and closes it once idle (an injected clock, no waiting); a bot whose
 * token was revoked fails its own jobs with the typed auth error and the fix, and the other
 * bots deliver, in process and on Redis (the real Slack client against the Slack emulator).
 */
import type { Clock } from "@outbox/core";
import { createSlackAdapter } from "@outbox/slack";
import { type SlackEmulator, startSlackEmulator } from "@outbox/slack/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type Outbox, type OutboxConfig } from "../src/index.js";
import { createFleet } from "./support/fleet.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

describe("accounts in process", () => {
  it("resolves an account on its first job, keeps it while used, closes it once idle", async () => {
    let now = 0;
    const clock: Clock = { now: () => now, sleep: async () => undefined };
    const fleet = createFleet({ idleMs: 1000, clock });
    const outbox = await createOutbox({ adapters: {}, accounts: fleet.resolver });
    await outbox.createWorker({ concurrency: 2 });
    const deliver = async (account: string, text: string) => {
      const { id } = await outbox.enqueue("fleet", { text }, { to: "c" }, { account });
      return (await outbox.receipt(id)).status;
    };
    expect(await Promise.all([deliver("a", "1"), deliver("a", "2"), deliver("b", "3")])).toEqual([
      "delivered",
      "delivered",
      "delivered",
    ]);
    expect(fleet.resolved).toEqual(["a", "b"]);
    now = 999;
    await deliver("c", "4");
    expect(fleet.closed).toEqual([]);
    now = 2000;
    await deliver("a", "5");
    // a, b and c were idle for 1000 ms or more: closed; a is resolved again for its new job.
    expect(fleet.closed.sort()).toEqual(["a", "b", "c"]);
    expect(fleet.resolved).toEqual(["a", "b", "c", "a"]);
    await outbox.close();
  });

  it("refuses an account of a platform nobody resolves before queueing; an unknown account ends dead", async () => {
    const fleet = createFleet();
    const resolver = { ...fleet.resolver, resolve: async () => undefined };
    const outbox = await createOutbox({ adapters: {}, accounts: resolver });
    await expect(outbox.enqueue("slack", { text: "x" }, { to: "c" }, { account: "a" })).rejects.toThrow(
      /no adapter named "slack"; configured: fleet/,
    );
    await expect(outbox.enqueue("fleet", { text: "x" }, { to: "c" }, { account: "" })).rejects.toThrow(
      /account: must be a non-empty string/,
    );
    await outbox.createWorker();
    const { id } = await outbox.enqueue("fleet", { text: "x" }, { to: "c" }, { account: "gone" });
    expect(await outbox.receipt(id)).toMatchObject({
      status: "dead",
      account: "gone",
      reason: expect.stringContaining('no account "gone" on fleet'),
    });
    await outbox.close();
  });
});

let redis: RedisServer | undefined;
let emulator: SlackEmulator;

const modes = [
  { name: "in process", redis: false },
  { name: "on Redis", redis: true },
] as const;

describe.each(modes)("a revoked bot $name", (mode) => {
  beforeAll(async () => {
    emulator = await startSlackEmulator({ channels: [{ id: "C0FLEET" }], revokedTokens: ["xoxb-revoked"] });
    if (mode.redis && redisMissing === undefined) redis = await startRedis();
  });
  afterAll(async () => {
    await emulator?.close();
    await redis?.stop();
    redis = undefined;
  });

  it.skipIf(mode.redis && redisMissing !== undefined)(
    "fails its own jobs with the auth error and the fix; the other bot delivers",
    async () => {
      const resolved: string[] = [];
      const config: OutboxConfig = {
        adapters: {},
        accounts: {
          platforms: ["slack"],
          async resolve({ account }, services) {
            resolved.push(account);
            const token = account === "revoked" ? "xoxb-revoked" : emulator.token;
            return createSlackAdapter({ slackApiUrl: emulator.slackApiUrl, token, ...services });
          },
        },
        ...(redis === undefined ? {} : { connection: redis.url, prefix: "accounts", partitions: 4 }),
      };
      const outbox: Outbox = await createOutbox(config);
      const worker = await outbox.createWorker();
      const ids: Array<[string, string]> = [];
      for (let i = 0; i < 4; i += 1)
        for (const account of ["revoked", "good"])
          ids.push([
            account,
            (await outbox.enqueue("slack", { text: `${account} ${i}` }, { to: "C0FLEET" }, { account })).id,
          ]);
      const receipts = await Promise.all(ids.map(([, id]) => outbox.receipt(id)));
      for (const [n, receipt] of receipts.entries()) {
        if (ids[n]?.[0] === "good") {
          expect(receipt).toMatchObject({ status: "delivered", account: "good" });
          continue;
        }
        expect(receipt).toMatchObject({ status: "failed", account: "revoked" });
        expect(receipt.receipt?.failures[0]).toMatchObject({
          error: { code: "auth_failed", message: expect.stringContaining("revoked") },
          action: expect.stringContaining("fix its token"),
        });
        expect(JSON.stringify(receipt)).not.toContain("xoxb-");
      }
      expect(emulator.observe("C0FLEET").map((message) => message.text)).toEqual([
        "good 0",
        "good 1",
        "good 2",
        "good 3",
      ]);
      // After each refusal the bot is resolved again (its token may have been replaced).
      expect(resolved.filter((account) => account === "revoked")).toHaveLength(4);
      expect(resolved.filter((account) => account === "good")).toHaveLength(1);
      if (redis !== undefined) {
        // Each bot's limits are its own buckets in Redis.
        const client = new Redis(redis.url);
        const buckets = await client.keys("accounts:_:rate:*");
        client.disconnect();
        expect(buckets.some((key) => key.startsWith("accounts:_:rate:slack@good:"))).toBe(true);
        expect(buckets.some((key) => key.startsWith("accounts:_:rate:slack@revoked:"))).toBe(true);
      }
      await worker.close();
      await outbox.close();
    },
  );
});
