/**
 * Accounts take turns, in process and on Redis: 100 bots, one flooding 10,000 replies (2,000
 * on Redis), the 99 others one reply each, queued while the flood runs. Latency is counted in
 * jobs (sends that start between a quiet reply's enqueue and its own send), never in wall
 * time. And a paused account's jobs wait, in order, and none is lost.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type Outbox, type OutboxConfig } from "../src/index.js";
import { createFleet, type Fleet } from "./support/fleet.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

const FLOOD_CHATS = 100;
const QUIET = 99;
/** In process: worker slots. On Redis one partition, so one job at a time. */
const SLOTS = 4;

let redis: RedisServer | undefined;
let prefixes = 0;

/** The modes, each with the number of jobs that run at once (the "one job per worker" bound). */
const modes = [
  {
    name: "in process",
    slots: SLOTS,
    flood: 10_000,
    start: (fleet: Fleet): Promise<Outbox> => createOutbox({ adapters: {}, accounts: fleet.resolver }),
    worker: (outbox: Outbox) => outbox.createWorker({ concurrency: SLOTS }),
  },
  {
    name: "on Redis",
    slots: 1,
    // Fewer than in process only to keep the suite fast (10,000 enqueues take ~10 s here):
    // a tag does not depend on how many jobs wait.
    flood: 2_000,
    start: (fleet: Fleet): Promise<Outbox> => {
      if (redis === undefined) throw new Error("no Redis");
      prefixes += 1;
      const config: OutboxConfig = {
        adapters: {},
        accounts: fleet.resolver,
        connection: redis.url,
        prefix: `fair${prefixes}`,
        partitions: 1,
      };
      return createOutbox(config);
    },
    worker: (outbox: Outbox) => outbox.createWorker(),
  },
] as const;

/** Queue `count` replies of `account`, chats in parallel, each chat's replies one after another. */
async function flood(
  outbox: Outbox,
  account: string,
  count: number,
  chats: number,
  label = "",
): Promise<string[]> {
  const perChat = await Promise.all(
    Array.from({ length: chats }, async (_, chat) => {
      const ids: string[] = [];
      for (let i = chat; i < count; i += chats)
        ids.push(
          (await outbox.enqueue("fleet", { text: `${label}${chat}:${i}` }, { to: `c${chat}` }, { account }))
            .id,
        );
      return ids;
    }),
  );
  return perChat.flat();
}

/** The statuses of the receipts of `ids`. */
const statuses = (outbox: Outbox, ids: string[]): Promise<string[]> =>
  Promise.all(ids.map((id) => outbox.receipt(id).then((receipt) => receipt.status)));

/** Each chat's texts, as sent, for `account`. */
function sentPerChat(fleet: Fleet, account: string): Map<string, string[]> {
  const chats = new Map<string, string[]>();
  for (const send of fleet.sends)
    if (send.account === account) chats.set(send.to, [...(chats.get(send.to) ?? []), send.text]);
  return chats;
}

describe.each(modes)("fairness $name", (mode) => {
  beforeAll(async () => {
    if (mode.name === "on Redis" && redisMissing === undefined) redis ??= await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
    redis = undefined;
  });
  const skip = mode.name === "on Redis" && redisMissing !== undefined;

  it.skipIf(skip)(
    `a bot with ${mode.flood} waiting replies delays each of 99 others by at most one job per worker`,
    async () => {
      const fleet = createFleet();
      const outbox = await mode.start(fleet);
      await flood(outbox, "bot-0", mode.flood, FLOOD_CHATS);
      // At the flood's 50th send, every running send waits while the 99 quiet replies are
      // queued (so the count below starts with the flood mid-run), then all go on.
      const marks: number[] = [];
      const quiet: Array<Promise<string>> = [];
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      fleet.onSend = async () => {
        if (fleet.sends.length < 50) return;
        if (fleet.sends.length === 50)
          for (let bot = 1; bot <= QUIET; bot += 1) {
            marks.push(fleet.sends.length);
            const { id } = await outbox.enqueue(
              "fleet",
              { text: `q${bot}` },
              { to: "q" },
              { account: `bot-${bot}` },
            );
            quiet.push(outbox.receipt(id).then((receipt) => receipt.status));
            if (bot === QUIET) release();
          }
        await gate;
      };
      const worker = await mode.worker(outbox);
      await gate;
      expect(await Promise.all(quiet)).toEqual(Array.from({ length: QUIET }, () => "delivered"));
      const at = (bot: number) => fleet.sends.findIndex((send) => send.account === `bot-${bot}`);
      // Flood jobs started between a quiet reply's enqueue and its send: without the flood 0,
      // with it at most one per worker slot.
      const floodBefore = Array.from(
        { length: QUIET },
        (_, i) => fleet.sends.slice(marks[i], at(i + 1)).filter((send) => send.account === "bot-0").length,
      );
      expect(Math.max(...floodBefore)).toBeLessThanOrEqual(mode.slots);
      // One job at a time: the quiet replies went out in enqueue order, right after each other.
      if (mode.slots === 1)
        expect(Array.from({ length: QUIET }, (_, i) => at(i + 1) - at(1))).toEqual(
          Array.from({ length: QUIET }, (_, i) => i),
        );
      // The flood's chats kept their order.
      for (const [chat, texts] of sentPerChat(fleet, "bot-0"))
        expect(texts.map((text) => Number(text.split(":")[1]))).toEqual(
          texts.map((_, n) => Number(chat.slice(1)) + n * FLOOD_CHATS),
        );
      await worker.close();
      await outbox.close();
    },
  );

  it.skipIf(skip)("a paused account's replies wait, in order, and all go out once resumed", async () => {
    const fleet = createFleet();
    const outbox = await mode.start(fleet);
    const before = await flood(outbox, "paused", 6, 2, "b");
    await outbox.pauseAccount("fleet", "paused");
    const other = await flood(outbox, "other", 4, 2);
    const during = await flood(outbox, "paused", 6, 2, "d");
    const worker = await mode.worker(outbox);
    // The paused account's jobs queued before the others are taken first (on Redis, one
    // partition: drained, not run), so once the others are done none of them can be running.
    expect(await statuses(outbox, other)).toEqual(other.map(() => "delivered"));
    expect(fleet.sends.filter((send) => send.account === "paused")).toEqual([]);
    await outbox.resumeAccount("fleet", "paused");
    const after = await flood(outbox, "paused", 4, 2, "a");
    const all = [...before, ...during, ...after];
    expect(await statuses(outbox, all)).toEqual(all.map(() => "delivered"));
    expect(Object.fromEntries(sentPerChat(fleet, "paused"))).toEqual({
      c0: ["b0:0", "b0:2", "b0:4", "d0:0", "d0:2", "d0:4", "a0:0", "a0:2"],
      c1: ["b1:1", "b1:3", "b1:5", "d1:1", "d1:3", "d1:5", "a1:1", "a1:3"],
    });
    await worker.close();
    await outbox.close();
  });
});
