import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { DeliveryJournal, SentMessage } from "../../src/adapter/types.js";
import { createFileStore } from "../../src/engine/file-store.js";
import { createMemoryStore } from "../../src/engine/memory-store.js";
import { PayloadError, PlatformError, TransportError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

const text = "one one\n\ntwo two\n\nthree three\n\nfour four";
const small = { text: { maxLength: 12, format: "x" } };
const to = { to: "chat" };
const refuse = () => {
  throw new PlatformError("no", { method: "sendMessage", status: 400, description: "Bad Request" });
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A keyed send whose part "two two" the platform refused, its journal, and a transport that now accepts. */
async function refusedPartTwo(key: string) {
  const store = createMemoryStore();
  const { send, transport } = harness(small, { store });
  transport.behave((op) => (op.type === "text" && op.text.text.startsWith("two") ? refuse() : undefined));
  await send({ text }, to, { idempotencyKey: key });
  const stored = (await store.get(key)) as DeliveryJournal;
  transport.behave(() => undefined);
  return { send, transport, store, stored };
}

describe("once-only delivery", () => {
  it("a repeated send delivers only the parts not yet delivered and returns the combined receipt", async () => {
    const { send, transport } = harness(small);
    transport.behave((op) => (op.type === "text" && op.text.text.startsWith("two") ? refuse() : undefined));
    const first = await send({ text }, to, { idempotencyKey: "k1" });
    expect(first.failures.map((f) => f.part)).toEqual([1]);
    transport.behave(() => undefined);
    const second = await send({ text }, to, { idempotencyKey: "k1" });
    expect(second.ok).toBe(true);
    expect(second.messages.map((m) => m.part)).toEqual([0, 1, 2, 3]);
    expect(transport.delivered().map((c) => (c.op.type === "text" ? c.op.text.text : ""))).toEqual([
      "one one",
      "three three",
      "four four",
      "two two",
    ]);
    const third = await send({ text }, to, { idempotencyKey: "k1" });
    expect(third).toEqual(second);
    expect(transport.calls).toHaveLength(5);
  });

  it("resumes a stored journal that names a part its plan does not have, and saves only the plan's", async () => {
    const { send, transport, store, stored } = await refusedPartTwo("odd");
    await store.set("odd", { ...stored, ambiguousParts: [7] });
    const receipt = await send({ text }, to, { idempotencyKey: "odd" });
    expect(receipt.ok).toBe(true);
    expect(transport.calls).toHaveLength(5);
    expect(await store.get("odd")).toMatchObject({ deliveredParts: [0, 1, 2, 3], ambiguousParts: [] });
  });

  it("a stored journal that repeats a delivered part is not read as every part delivered", async () => {
    const { send, transport, store, stored } = await refusedPartTwo("repeat");
    expect(stored).toMatchObject({ partCount: 4, deliveredParts: [0, 2, 3] });
    // As many entries as parts, but part 1 is not among them.
    await store.set("repeat", { ...stored, deliveredParts: [0, 2, 3, 3] });
    const receipt = await send({ text }, to, { idempotencyKey: "repeat" });
    expect(receipt.ok).toBe(true);
    expect(transport.delivered().map((c) => (c.op.type === "text" ? c.op.text.text : ""))).toContain(
      "two two",
    );
  });

  it('settles an ambiguous part on the same adapter: ambiguous "resend" sends it once, "delivered" records it', async () => {
    const { send, transport } = harness(small);
    const flaky = () =>
      transport.behave((op) => {
        if (op.type === "text" && op.text.text.startsWith("two"))
          throw new TransportError("reset", { ambiguous: true });
        return undefined;
      });
    flaky();
    expect((await send({ text }, to, { idempotencyKey: "resend" })).failures.map((f) => f.part)).toEqual([1]);
    transport.behave(() => undefined);
    // The person did not get it: resend it, and only it.
    const resent = await send({ text }, to, { idempotencyKey: "resend", ambiguous: "resend" });
    expect(resent.ok).toBe(true);
    expect(resent.messages.map((m) => m.part)).toEqual([0, 1, 2, 3]);
    expect(
      transport.delivered().filter(({ op }) => op.type === "text" && op.text.text.startsWith("two")),
    ).toHaveLength(1);
    expect(transport.calls).toHaveLength(5);

    flaky();
    await send({ text }, to, { idempotencyKey: "seen" });
    transport.behave(() => undefined);
    // The person got it: record it, send nothing; later repeats neither send nor report it.
    const seen = await send({ text }, to, { idempotencyKey: "seen", ambiguous: "delivered" });
    expect(seen.ok).toBe(true);
    expect(seen.failures).toEqual([]);
    expect(seen.messages.map((m) => m.part)).toEqual([0, 2, 3]);
    expect(transport.calls).toHaveLength(9);
    expect((await send({ text }, to, { idempotencyKey: "seen" })).ok).toBe(true);
    expect(transport.calls).toHaveLength(9);
  });

  it("refuses ambiguous without an idempotencyKey, and a value it does not know, before any call", async () => {
    const { send, transport } = harness(small);
    await expect(send({ text }, to, { ambiguous: "resend" })).rejects.toThrow(
      /options\.ambiguous needs an idempotencyKey/,
    );
    await expect(send({ text }, to, { idempotencyKey: "k", ambiguous: "retry" as "resend" })).rejects.toThrow(
      /options\.ambiguous must be "report", "resend" or "delivered", got "retry"/,
    );
    expect(transport.calls).toHaveLength(0);
  });

  it("does not resend a part that failed ambiguously, unless retryAmbiguous", async () => {
    const { send, transport } = harness(small);
    transport.behave((op) => {
      if (op.type === "text" && op.text.text.startsWith("two"))
        throw new TransportError("reset", { ambiguous: true });
      return undefined;
    });
    await send({ text }, to, { idempotencyKey: "amb" });
    transport.behave(() => undefined);
    const again = await send({ text }, to, { idempotencyKey: "amb" });
    expect(again.failures).toEqual([
      expect.objectContaining({
        part: 1,
        error: expect.objectContaining({ code: "transport_error", ambiguous: true }),
        ambiguous: true,
        retryable: false,
        action: expect.stringMatching(
          /look in the chat, then send again with the same idempotencyKey and ambiguous "delivered" .* or "resend"/,
        ),
      }),
    ]);
    expect(transport.calls).toHaveLength(4);

    const { send: sendEager, transport: eager } = harness(small, {
      retry: { retryAmbiguous: true, maxRetries: 0 },
    });
    eager.behave((op) => {
      if (op.type === "text" && op.text.text.startsWith("two"))
        throw new TransportError("reset", { ambiguous: true });
      return undefined;
    });
    await sendEager({ text }, to, { idempotencyKey: "amb" });
    eager.behave(() => undefined);
    expect((await sendEager({ text }, to, { idempotencyKey: "amb" })).ok).toBe(true);
    expect(eager.calls).toHaveLength(5);
  });

  it("refuses a key reused with a different payload or target", async () => {
    const { send, adapter, transport } = harness();
    await send({ text: "a" }, to, { idempotencyKey: "k" });
    await expect(adapter.send({ text: "b" }, to, { idempotencyKey: "k" })).rejects.toBeInstanceOf(
      PayloadError,
    );
    await expect(
      adapter.send({ text: "a" }, { to: "other" }, { idempotencyKey: "k" }),
    ).rejects.toBeInstanceOf(PayloadError);
    expect(transport.calls).toHaveLength(1);
  });

  it("serializes concurrent sends with the same key: nothing goes twice", async () => {
    const { adapter, transport, clock } = harness(small);
    const receipts = await clock.run(
      Promise.all([
        adapter.send({ text }, to, { idempotencyKey: "same" }),
        adapter.send({ text }, to, { idempotencyKey: "same" }),
      ]),
    );
    expect(transport.calls).toHaveLength(4);
    expect(receipts[0]).toEqual(receipts[1]);
  });

  it("survives a crash mid-plan with the file store", async () => {
    const dir = await mkdtemp(join(tmpdir(), "outbox-journal-"));
    dirs.push(dir);
    const before = harness(small, { store: createFileStore(dir) });
    let crashed: () => void = () => undefined;
    const crash = new Promise<void>((resolve) => {
      crashed = resolve;
    });
    before.transport.behave((_op, call) => {
      if (call < 3) return undefined;
      crashed();
      return new Promise<SentMessage>(() => undefined);
    });
    void before.adapter.send({ text }, to, { idempotencyKey: "crash" });
    await crash;
    expect((await readdir(dir)).filter((f) => f.endsWith(".json"))).toHaveLength(1);

    const after = harness(small, { store: createFileStore(dir) });
    const receipt = await after.send({ text }, to, { idempotencyKey: "crash" });
    expect(after.transport.calls.map((c) => (c.op.type === "text" ? c.op.text.text : ""))).toEqual([
      "three three",
      "four four",
    ]);
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toEqual([
      { id: "m1", kind: "text", part: 0 },
      { id: "m2", kind: "text", part: 1 },
      { id: "m1", kind: "text", part: 2 },
      { id: "m2", kind: "text", part: 3 },
    ]);
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
