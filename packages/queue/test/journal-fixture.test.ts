/**
 * A journal the Redis store saved in an earlier release is resumed by this release through
 * the same store. The fixtures are the strings earlier releases left in Redis (write-ahead,
 * while part 2 of four was being sent; part 1 had been refused), shared with core's
 * journal-version test: one from before journals had a `version`, one written as version 1.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createAdapter,
  createPlainRenderer,
  JOURNAL_VERSION,
  type Operation,
  type Transport,
} from "@outbox/core";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keysOf } from "../src/redis/keys.js";
import { createRedisStore } from "../src/redis/store.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";

const fixtures = join(import.meta.dirname, "../../core/test/fixtures/journals");
const text = "one one\n\ntwo two\n\nthree three\n\nfour four";

let server: RedisServer;
let client: Redis;

describe.skipIf(redisMissing)(`Redis journals of earlier releases ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    server = await startRedis();
    client = new Redis(server.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await server?.stop();
  });

  it.each([
    ["before versions", "redis-store.json"],
    ["as version 1", "redis-store-v1.json"],
  ])(
    "resumes one written %s: delivered parts are skipped, the part being sent is reported, the rest goes",
    async (_, name) => {
      const keys = keysOf("outbox");
      await client.set(keys.journal("redis-key"), await readFile(join(fixtures, name), "utf8"));
      const sent: Operation[] = [];
      const transport: Transport = {
        sendText: async (op) => {
          sent.push(op);
          return { id: `new${sent.length}` };
        },
        sendMedia: async () => {
          throw new Error("no media in this payload");
        },
      };
      const adapter = createAdapter({
        name: "test",
        capabilities: {
          text: { maxLength: 12, format: "plain" },
          caption: { maxLength: 12 },
          media: { kinds: [], maxBytes: { default: 1 } },
          album: null,
          voice: { mode: "as-audio", formats: [] },
          replies: false,
          threads: false,
          markdownImages: false,
          rateLimits: [],
        },
        renderer: createPlainRenderer(),
        transport,
        store: createRedisStore(client, keys.journal, 60),
      });
      const receipt = await adapter.send({ text }, { to: "chat" }, { idempotencyKey: "redis-key" });
      expect(sent.map((op) => (op.type === "text" ? op.text.text : op.type))).toEqual([
        "two two",
        "four four",
      ]);
      expect(receipt.messages.map((m) => [m.part, m.id])).toEqual([
        [0, "m1"],
        [1, "new1"],
        [3, "new2"],
      ]);
      expect(receipt.failures.map((f) => [f.part, f.ambiguous])).toEqual([[2, true]]);
      const stored = JSON.parse((await client.get(keys.journal("redis-key"))) as string);
      expect(stored).toMatchObject({
        version: JOURNAL_VERSION,
        deliveredParts: [0, 1, 3],
        ambiguousParts: [2],
      });
    },
  );
});
