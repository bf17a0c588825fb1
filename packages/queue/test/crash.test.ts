/**
 * Once-only across crashes: a worker process is killed with SIGKILL right before each step of
 * a two-part delivery in turn (journal write-ahead, platform call, journal write, the steps
 * after), exactly there (a step hook, not a timer); another worker takes the job over once the
 * lock lapses. Every part reaches the chat exactly once, or the receipt reports it ambiguous
 * (retryAmbiguous is off): never twice, never missing without a word.
 */
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbox, type DeliveryStep, type QueuedReceipt } from "../src/index.js";
import { adapterFactories } from "./support/platforms.js";
import { type RedisServer, redisMissing, startRedis } from "./support/redis-server.js";
import { startWorkerProcess } from "./support/worker-child.js";

/** Two paragraphs, each too long to share a Telegram message with the other: two parts. */
const PARTS = ["PART-A", "PART-B"];
const reply = PARTS.map((mark) => `${mark} ${"lorem ipsum ".repeat(250)}`).join("\n\n");
const LOCK = { lockDurationMs: 2000, stalledIntervalMs: 400 };

let redis: RedisServer;
let emulator: TelegramEmulator;

interface Outcome {
  killAt: number;
  receipt: QueuedReceipt;
  /** How many times each part arrived. */
  arrived: number[];
}

/** Queue the reply to `chat` under `prefix`, let a worker process die at step `killAt`, recover in this process. */
async function crashAt(killAt: number, chat: number): Promise<Outcome> {
  const prefix = `crash${killAt}`;
  const telegram = { apiRoot: emulator.apiRoot, token: emulator.token };
  const outbox = await createOutbox({
    adapters: adapterFactories({ telegram }),
    connection: redis.url,
    prefix,
    partitions: 2,
  });
  try {
    const child = await startWorkerProcess({
      redis: redis.url,
      prefix,
      partitions: 2,
      telegram,
      killAt,
      ...LOCK,
    });
    const { id } = await outbox.enqueue("telegram", { text: reply }, { to: String(chat) });
    expect(await child.exited).toBe("SIGKILL");
    const worker = await outbox.createWorker(LOCK);
    const receipt = await outbox.receipt(id);
    await worker.close();
    const texts = emulator.observe(chat).map((message) => message.text ?? "");
    return {
      killAt,
      receipt,
      arrived: PARTS.map((mark) => texts.filter((text) => text.startsWith(mark)).length),
    };
  } finally {
    await outbox.close();
  }
}

describe.skipIf(redisMissing)(`SIGKILL at every step ${redisMissing ?? ""}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
    emulator = await startTelegramEmulator({ chats: Array.from({ length: 20 }, (_, i) => ({ id: i + 1 })) });
  });
  afterAll(async () => {
    await emulator?.close();
    await redis?.stop();
  });

  it("delivers every part exactly once or reports it ambiguous, at each kill point", async () => {
    // The steps of this delivery, from a run without a crash.
    const steps: DeliveryStep["kind"][] = [];
    const dry = await createOutbox({
      adapters: adapterFactories({ telegram: emulator }),
      connection: redis.url,
      prefix: "dry",
      partitions: 2,
    });
    const worker = await dry.createWorker({ onStep: (step) => steps.push(step.kind) });
    const { id } = await dry.enqueue("telegram", { text: reply }, { to: "20" });
    expect((await dry.receipt(id)).status).toBe("delivered");
    await worker.close();
    await dry.close();
    const part = ["pace", "journal", "journaled", "send", "journal", "journaled"];
    expect(steps).toEqual([...part, ...part]);

    const outcomes: Outcome[] = [];
    for (let first = 1; first <= steps.length; first += 6)
      outcomes.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(6, steps.length - first + 1) }, (_, i) =>
            crashAt(first + i, first + i),
          ),
        )),
      );

    for (const { killAt, receipt, arrived } of outcomes) {
      const ambiguous = new Set(
        (receipt.receipt?.failures ?? []).filter((failure) => failure.error.ambiguous).map((f) => f.part),
      );
      const delivered = new Set((receipt.receipt?.messages ?? []).map((message) => message.part));
      for (const part of [0, 1]) {
        const where = `kill at step ${killAt} (${steps[killAt - 1]}), part ${part}`;
        expect(arrived[part], where).toBeLessThanOrEqual(1);
        expect(delivered.has(part) || ambiguous.has(part), where).toBe(true);
        if (delivered.has(part)) expect(arrived[part], where).toBe(1);
      }
      expect(receipt.receipt?.failures.every((failure) => failure.error.ambiguous)).toBe(true);
    }
    // The window that matters was hit: a part the platform took before its journal write is
    // reported ambiguous, not resent.
    expect(
      outcomes.some(({ receipt, arrived }) => arrived[0] === 1 && receipt.receipt?.failures[0]?.part === 0),
    ).toBe(true);
    // And a crash before anything was sent loses nothing.
    expect(outcomes[0]?.receipt.status).toBe("delivered");
    expect(outcomes[0]?.arrived).toEqual([1, 1]);
    // Killed while waiting for part 1's token (step 7, `pace`): nothing of part 1 left, no
    // `sending` mark was written, so the next worker sends it (issue 21, item 4).
    expect(steps[6]).toBe("pace");
    expect(outcomes[6]?.receipt.status).toBe("delivered");
    expect(outcomes[6]?.arrived).toEqual([1, 1]);
  });
});
