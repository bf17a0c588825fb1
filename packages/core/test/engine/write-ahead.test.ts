/**
 * The hooks `@outbox/queue` builds on: a write-ahead store sees the journal before each part
 * (marked `sending`), a journal read back with `sending` makes that part ambiguous, and
 * `pacing.gate` is passed before every platform call, retries included.
 */
import { describe, expect, it } from "vitest";
import type { DeliveryJournal, DeliveryStore, GateCall } from "../../src/adapter/types.js";
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

  it("mark a part `sending` only when its request leaves: after the pacer and the gate", async () => {
    const store = recordingStore(true);
    const marksAtGate: number[] = [];
    const { send } = harness(small, {
      store,
      pacing: { gate: async () => void marksAtGate.push(store.saved.length) },
    });
    await send({ text }, to, { idempotencyKey: "k" });
    // Part 0's gate passed before any save, part 1's after part 0's two: a process stopped
    // while waiting for a token left no `sending` mark, so the next attempt sends the part.
    expect(marksAtGate).toEqual([0, 2]);
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

describe("a journal left mid-part on a platform that remembers keys", () => {
  /** A send of two parts, the journal as a process left it after part 1's mark, `ageMs` ago. */
  async function leftMidPart(ageMs: number) {
    const store = recordingStore(true);
    const first = harness(small, { store });
    await first.send({ text }, to, { idempotencyKey: "k" });
    const marked = store.saved[2] as DeliveryJournal;
    expect(marked.sending).toBe(1);
    const markedAt = (marked.sendingAt as number) - ageMs;
    store.map.set("k", { ...marked, sendingAt: markedAt });
    const again = harness(small, { store });
    again.transport.deduplicatesByKey = true;
    again.transport.deduplicatesForMs = 60_000;
    const receipt = await again.send({ text }, to, { idempotencyKey: "k" });
    const marks = store.saved.slice(4).filter((journal) => journal.sending !== undefined);
    return {
      receipt,
      resent: again.transport.calls,
      firstKey: first.transport.calls[1]?.op.key,
      markedAt,
      marks,
    };
  }

  it("resends the part with the same key while the mark is younger than the platform remembers", async () => {
    const { receipt, resent, firstKey, markedAt, marks } = await leftMidPart(1000);
    expect(receipt).toMatchObject({ ok: true, failures: [] });
    expect(firstKey).toMatch(/^[\w-]{24}$/);
    expect(resent.map((call) => call.op.key)).toEqual([firstKey]);
    // The resend's mark keeps the first mark's time: the platform remembers the key from the
    // first request, so a run stopped again is measured from there too.
    expect(marks.map((journal) => [journal.sending, journal.sendingAt])).toEqual([[1, markedAt]]);
  });

  it("reports it ambiguous once the platform may have forgotten the key", async () => {
    const { receipt, resent } = await leftMidPart(60_000);
    expect(receipt.failures).toEqual([expect.objectContaining({ part: 1, ambiguous: true })]);
    expect(resent).toHaveLength(0);
  });
});

describe("a journal that cannot be saved", () => {
  it("after a part: the delivery goes on and the receipt names the unsaved journal", async () => {
    const store = recordingStore(false);
    let failed = false;
    const flaky: DeliveryStore = {
      get: store.get,
      set: async (key, journal) => {
        if (failed) return store.set(key, journal);
        failed = true;
        throw new Error("disk full");
      },
    };
    const { send, transport } = harness(small, { store: flaky });
    const receipt = await send({ text }, to, { idempotencyKey: "k" });
    expect(transport.calls).toHaveLength(2);
    expect(receipt).toMatchObject({ ok: true, failures: [], messages: [{ part: 0 }, { part: 1 }] });
    expect(receipt.degraded).toEqual([
      { part: 0, from: "journal", to: "none", reason: expect.stringContaining("disk full") },
    ]);
  });

  it("before a part (its sending mark): that part is not sent and fails as not sent", async () => {
    const store = recordingStore(true);
    const refusing: DeliveryStore = {
      writeAhead: true,
      get: store.get,
      set: async (key, journal) => {
        if (journal.sending === 1) throw new Error("OOM command not allowed");
        return store.set(key, journal);
      },
    };
    const { send, transport } = harness(small, { store: refusing, retry: { maxRetries: 0 } });
    const receipt = await send({ text }, to, { idempotencyKey: "k" });
    expect(transport.calls).toHaveLength(1);
    expect(receipt.failures).toEqual([
      expect.objectContaining({
        part: 1,
        ambiguous: false,
        error: expect.objectContaining({ name: "StoreError", code: "store_failed" }),
      }),
    ]);
  });
});

describe("pacing.gate", () => {
  it("is passed before every platform call, retries included, told the part and the attempt", async () => {
    const gated: Array<[string, GateCall | undefined]> = [];
    const { send, transport } = harness(small, {
      pacing: {
        margin: 0,
        latencyMs: 0,
        gate: async (target, _signal, call) => void gated.push([target, call]),
      },
    });
    let refused = false;
    transport.behave(() => {
      if (refused) return undefined;
      refused = true;
      throw new RateLimitedError("slow down", 0);
    });
    expect((await send({ text }, to)).ok).toBe(true);
    expect(transport.calls).toHaveLength(3);
    // A retried 429 is the same part's attempt 1.
    expect(gated).toEqual([
      ["chat", { part: 0, attempt: 0 }],
      ["chat", { part: 0, attempt: 1 }],
      ["chat", { part: 1, attempt: 0 }],
    ]);
  });

  it("is told the adapter's pacing, and what it resolves with once each call has its answer", async () => {
    const events: string[] = [];
    const pacing = {
      margin: 0.2,
      latencyMs: 100,
      gate: async (_target: string, _signal?: AbortSignal, call?: GateCall, given?: object) => {
        events.push(`gate ${call?.part} ${given === pacing}`);
        return () => void events.push(`answered ${call?.part}`);
      },
    };
    const { send, transport } = harness(small, { pacing });
    transport.behave(() => void events.push("call"));
    expect((await send({ text }, to)).ok).toBe(true);
    // The gate keeps the adapter's margin and allowance; each call's answer is told back to it.
    expect(events).toEqual(["gate 0 true", "call", "answered 0", "gate 1 true", "call", "answered 1"]);
  });
});
