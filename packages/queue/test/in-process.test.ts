/**
 * The embedded default: no Redis, same API. Real Telegram adapter on its emulator (enforced
 * limits): per-chat order with several workers, receipts and events, dead letters, and the
 * checks made before anything is queued.
 */
import { PayloadError } from "@outbox/core";
import { startTelegramEmulator, type TelegramEmulator } from "@outbox/telegram/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AdapterFactory, createOutbox, type Outbox, type QueuedReceipt } from "../src/index.js";
import { adapterFactories } from "./support/platforms.js";

let emulator: TelegramEmulator;
let outbox: Outbox;

beforeEach(async () => {
  emulator = await startTelegramEmulator({ chats: [1, 2, 3].map((id) => ({ id })) });
  outbox = await createOutbox({ adapters: adapterFactories({ telegram: emulator }) });
});
afterEach(async () => {
  await outbox.close();
  await emulator.close();
});

describe("in-process outbox", () => {
  it("delivers replies per chat in enqueue order, with receipts and events", async () => {
    expect(outbox.mode).toBe("in-process");
    const finished: QueuedReceipt[] = [];
    outbox.on("finished", (receipt) => finished.push(receipt));
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1)
      ids.push((await outbox.enqueue("telegram", { text: `reply ${i}` }, { to: String((i % 3) + 1) })).id);
    const worker = await outbox.createWorker({ concurrency: 3 });
    await outbox.createWorker({ concurrency: 2 });
    const receipts = await Promise.all(ids.map((id) => outbox.receipt(id)));
    expect(receipts.map((receipt) => receipt.status)).toEqual(ids.map(() => "delivered"));
    expect(finished).toHaveLength(12);
    for (const chat of [1, 2, 3])
      expect(emulator.observe(chat).map((message) => message.text)).toEqual(
        [0, 1, 2, 3].map((k) => `reply ${k * 3 + chat - 1}`),
      );
    expect(emulator.rateLimitRefusals()).toBe(0);
    await worker.close();
  });

  it("retries transient failures with backoff, then dead-letters with the receipt and reason", async () => {
    await outbox.createWorker();
    emulator.inject({ kind: "rate-limit", retryAfterMs: 3_600_000, times: 3 });
    const dead: QueuedReceipt[] = [];
    outbox.on("dead", (receipt) => dead.push(receipt));
    const { id } = await outbox.enqueue(
      "telegram",
      { text: "doomed" },
      { to: "1" },
      { attempts: 3, backoffMs: 5 },
    );
    const { id: next } = await outbox.enqueue("telegram", { text: "after" }, { to: "1" });
    const receipt = await outbox.receipt(id);
    expect(receipt).toMatchObject({ status: "dead", attempts: 3 });
    expect(receipt.reason).toMatch(/gave up after 3 attempts: part 0: .*retry/i);
    expect(receipt.receipt?.failures[0]).toMatchObject({
      part: 0,
      error: { code: "rate_limited", ambiguous: false },
      content: expect.stringContaining("doomed"),
      ambiguous: false,
      retryable: true,
      action: expect.any(String),
    });
    expect(dead.map((entry) => entry.id)).toEqual([id]);
    expect((await outbox.deadLetters()).map((entry) => entry.id)).toEqual([id]);
    expect((await outbox.receipt(next)).status).toBe("delivered");
    expect(emulator.observe(1).map((message) => message.text)).toEqual(["after"]);
  });

  it("refuses inline bytes, unknown platforms and invalid payloads before queueing", async () => {
    const bytes = { mimeType: "image/png", data: new Uint8Array([1, 2, 3]) };
    await expect(outbox.enqueue("telegram", { media: [bytes] }, { to: "1" })).rejects.toThrow(
      /media\.0\.data: queued replies hold references, not bytes/,
    );
    await expect(outbox.enqueue("whatsapp", { text: "hi" }, { to: "1" })).rejects.toBeInstanceOf(
      PayloadError,
    );
    await expect(outbox.enqueue("telegram", { text: "hi" }, { to: "" })).rejects.toThrow(/target\.to/);
    await expect(outbox.receipt("never-queued")).rejects.toThrow(/no job "never-queued"/);
  });

  it("queues one job per idempotency key", async () => {
    const first = await outbox.enqueue("telegram", { text: "once" }, { to: "2" }, { idempotencyKey: "k1" });
    const second = await outbox.enqueue("telegram", { text: "once" }, { to: "2" }, { idempotencyKey: "k1" });
    expect(second.id).toBe(first.id);
    await outbox.createWorker();
    expect((await outbox.receipt(first.id)).status).toBe("delivered");
    expect(emulator.observe(2)).toHaveLength(1);
  });

  it("goes on when the journal cannot be saved: every part tried, the receipt lists them and names the journal", async () => {
    // The adapter's journal fails its first save (after part 0 went out).
    const telegram = adapterFactories({ telegram: emulator }).telegram as AdapterFactory;
    let saves = 0;
    const failing = await createOutbox({
      adapters: {
        telegram: (services) =>
          telegram({
            ...services,
            store: {
              get: services.store.get,
              set: async (key, journal) => {
                saves += 1;
                if (saves === 1) throw new Error("journal disk full");
                await services.store.set(key, journal);
              },
            },
          }),
      },
    });
    const markers = ["FIRST-PART", "SECOND-PART", "THIRD-PART"];
    const text = markers.map((marker) => `${marker} ${"lorem ipsum ".repeat(300)}`).join("\n\n");
    const { id } = await failing.enqueue("telegram", { text }, { to: "3" });
    await failing.createWorker();
    const receipt = await failing.receipt(id);
    await failing.close();
    expect(receipt).toMatchObject({ status: "delivered", attempts: 1 });
    expect(receipt.receipt?.messages.map((message) => message.part)).toEqual([0, 1, 2]);
    expect(receipt.receipt?.degraded).toEqual([
      { part: 0, from: "journal", to: "none", reason: expect.stringContaining("journal disk full") },
    ]);
    expect(emulator.observe(3).map((message) => message.text?.slice(0, 11))).toEqual([
      "FIRST-PART ",
      "SECOND-PART",
      "THIRD-PART ",
    ]);
  });
});
