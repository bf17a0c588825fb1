/**
 * The hooks `@outbox/queue` builds on: a write-ahead store sees the journal before each part
 * (marked `sending`), a journal read back with `sending` makes that part ambiguous, and
 * `pacing.gate` is passed before every platform call, retries included.
 */
import { describe, expect, it } from "vitest";
import type { DeliveryJournal, DeliveryStore } from "../../src/adapter/types.js";
import { RateLimitedError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

const text = "one one\n\ntwo two";
const small = { text: { maxLength: 12, format: "x" } };
const to = { to: "chat" };

function recordingStore(
  writeAhead: boolean,
): DeliveryStore & { saved: DeliveryJournal[]; map: Map<string, DeliveryJournal> } {
  const map = new Map<string, DeliveryJournal>();
  const saved: DeliveryJournal[] = [];
  return {
    writeAhead,
    saved,
    map,
    get: async (key) => structuredClone(map.get(key)),
    set: async (key, journal) => {
      saved.push(structuredClone(journal));
      map.set(key, structuredClone(journal));
    },
  };
}

describe("write-ahead journals", () => {
  it("save before each part with `sending`, and after it without", async () => {
    const store = recordingStore(true);
    const { send } = harness(small, { store });
    expect((await send({ text }, to, { idempotencyKey: "k" })).ok).toBe(true);
    expect(store.saved.map((journal) => [journal.sending, journal.deliveredParts])).toEqual([
      [0, []],
      [undefined, [0]],
      [1, [0]],
      [undefined, [0, 1]],
    ]);
    // Without write-ahead, only after each part.
    const plain = recordingStore(false);
    await harness(small, { store: plain }).send({ text }, to, { idempotencyKey: "k" });
    expect(plain.saved.map((journal) => journal.sending)).toEqual([undefined, undefined]);
  });

  it("a journal left mid-part (a crash) reports that part ambiguous instead of resending it", async () => {
    const store = recordingStore(true);
    const first = harness(small, { store });
    await first.send({ text }, to, { idempotencyKey: "k" });
    // The process died after the platform took part 1, before the journal said so.
    store.map.set("k", store.saved[2] as DeliveryJournal);
    const again = harness(small, { store });
    const receipt = await again.send({ text }, to, { idempotencyKey: "k" });
    expect(receipt.failures).toEqual([
      expect.objectContaining({
        part: 1,
        error: expect.objectContaining({ code: "transport_error", ambiguous: true }),
        ambiguous: true,
      }),
    ]);
    expect(again.transport.calls).toHaveLength(0);
    // With retryAmbiguous the part is resent.
    const eager = harness(small, { store, retry: { retryAmbiguous: true } });
    expect((await eager.send({ text }, to, { idempotencyKey: "k" })).ok).toBe(true);
    expect(eager.transport.calls).toHaveLength(1);
  });
});

describe("pacing.gate", () => {
  it("is passed before every platform call, retries included", async () => {
    const gated: string[] = [];
    const { send, transport } = harness(small, {
      pacing: { margin: 0, latencyMs: 0, gate: async (target) => void gated.push(target) },
    });
    let refused = false;
    transport.behave(() => {
      if (refused) return undefined;
      refused = true;
      throw new RateLimitedError("slow down", 0);
    });
    expect((await send({ text }, to)).ok).toBe(true);
    expect(transport.calls).toHaveLength(3);
    expect(gated).toEqual(["chat", "chat", "chat"]);
  });
});
