/**
 * Key names: a single Redis keeps the names every earlier release wrote (queued jobs, journals
 * and receipts of a running outbox are found after an upgrade); a cluster's names carry hash
 * tags spread over the slots; cluster settings that would break the tags are refused before
 * any connection.
 */
import { describe, expect, it } from "vitest";
import { createOutbox } from "../src/index.js";
import { keysOf, partitionOf } from "../src/redis/keys.js";
import { partitionTags, SLOTS, slotOf } from "../src/redis/slots.js";

describe("queue key names", () => {
  it("are unchanged on a single Redis", () => {
    const keys = keysOf("outbox");
    expect(keys.queue(3)).toBe("p3");
    expect(keys.journal("k{1}", 3)).toBe("outbox:_:journal:k{1}");
    expect(keys.bucket("telegram", 0)).toBe("outbox:_:rate:telegram:0");
    expect(keys.bucket("telegram", 1, "-100")).toBe("outbox:_:rate:telegram:1:-100");
    expect(keys.result("id")).toBe("outbox:_:result:id");
  });

  it("carry a partition's tag or a platform's on a cluster", () => {
    const keys = keysOf("outbox", partitionTags(32));
    const tag = partitionTags(32)[3];
    expect(keys.queue(3)).toBe(`p3{${tag}}`);
    expect(keys.journal("k{1}", 3)).toBe(`outbox:_:journal:{${tag}}:k{1}`);
    expect(keys.bucket("telegram", 1, "-100")).toBe("outbox:_:{rate:telegram}:1:-100");
  });

  it("hash as Redis Cluster does (CRC16/XMODEM of the tag, else of the key)", () => {
    // Values from the Redis Cluster specification and `CLUSTER KEYSLOT`.
    expect(slotOf("123456789")).toBe(0x31c3);
    expect(slotOf("foo")).toBe(12182);
    expect(slotOf("{user1000}.following")).toBe(slotOf("user1000"));
    expect(slotOf("foo{{bar}}zap")).toBe(slotOf("{bar"));
  });

  it("place each partition at the middle slot of its range", () => {
    for (const partitions of [1, 3, 32, 1000, SLOTS]) {
      const tags = partitionTags(partitions);
      expect(new Set(tags).size).toBe(partitions);
      expect(tags.every((tag, n) => slotOf(tag) === Math.floor(((n + 0.5) * SLOTS) / partitions))).toBe(true);
    }
  });

  it("refuses a braced prefix or more partitions than slots on a cluster, before connecting", async () => {
    // Port 1: nothing listens; a refusal must come before any connection is tried.
    const connection = { cluster: [{ host: "127.0.0.1", port: 1 }] };
    const adapters = { telegram: () => ({}) as never };
    await expect(createOutbox({ adapters, connection, prefix: "{app}" })).rejects.toThrow(
      /prefix "\{app\}" has a brace: on a Redis Cluster the outbox places the hash tags itself/,
    );
    await expect(createOutbox({ adapters, connection, partitions: SLOTS + 1 })).rejects.toThrow(RangeError);
  });

  it("spread similar targets evenly over the partitions, as FNV-1a modulo did not", () => {
    // 100 bots, each with its own chat: the fleet bench's ids.
    const spread = (partitioning: "fnv" | "mixed") => {
      const counts = new Array<number>(32).fill(0);
      for (let bot = 0; bot < 100; bot += 1) {
        const partition = partitionOf(`telegram@bot${bot}`, String(bot + 1), 32, partitioning);
        counts[partition] = (counts[partition] ?? 0) + 1;
      }
      return { busiest: Math.max(...counts), empty: counts.filter((count) => count === 0).length };
    };
    // An even spread: 3.1 a partition, about 7 in the busiest, 1.4 partitions empty.
    expect(spread("mixed").busiest).toBeLessThanOrEqual(8);
    expect(spread("mixed").empty).toBeLessThanOrEqual(3);
    // What earlier releases do (and keep doing on their Redis): 13 empty, one with 15.
    expect(spread("fnv")).toEqual({ busiest: 15, empty: 13 });
  });
});
