import { describe, expect, it } from "vitest";
import { PlatformError, TransportError } from "../../src/errors/errors.js";
import { harness } from "./support/harness.js";

const to = { to: "chat1" };
const twoParts = { text: "first part here\n\nsecond part here" };
const small = { text: { maxLength: 20, format: "x" } };
const keys = (calls: Array<{ op: { key?: string } }>) => calls.map((call) => call.op.key);

describe("operation keys", () => {
  it("gives each part its own key, the same on every retry, and the same in another process for the same idempotencyKey", async () => {
    const first = harness(small);
    first.transport.behave((_op, call) => {
      if (call === 1) throw new TransportError("ECONNREFUSED", { ambiguous: false });
      return undefined;
    });
    await first.send(twoParts, to, { idempotencyKey: "reply-7" });
    const [a, retried, b] = keys(first.transport.calls);
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(retried).toBe(a);
    expect(b).not.toBe(a);
    const other = harness(small); // a fresh process: its own store, same key
    await other.send(twoParts, to, { idempotencyKey: "reply-7" });
    expect(keys(other.transport.calls)).toEqual([a, b]);
  });

  it("derives keys from a random id per send without idempotencyKey", async () => {
    const { send, transport } = harness();
    await send({ text: "hi" }, to);
    await send({ text: "hi" }, to);
    const [one, two] = keys(transport.calls);
    expect(one).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(two).not.toBe(one);
  });

  it("without idempotencyKey, no two sends of a process share a key, whichever adapter sends them", async () => {
    const one = harness();
    const two = harness();
    for (let i = 0; i < 200; i += 1) {
      await one.send({ text: "hi" }, to);
      await two.send({ text: "hi" }, to);
    }
    const all = [...keys(one.transport.calls), ...keys(two.transport.calls)];
    expect(all).toHaveLength(400);
    expect(new Set(all).size).toBe(400);
  });

  it("without idempotencyKey, a send's parts share its random digits and differ in the rest", async () => {
    const { send, transport } = harness(small);
    await send(twoParts, to);
    await send(twoParts, to);
    const [a, b, c, d] = keys(transport.calls) as string[];
    for (const key of [a, b, c, d]) expect(key).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(b?.slice(0, 18)).toBe(a?.slice(0, 18));
    expect(new Set([a, b, c, d]).size).toBe(4);
    expect(c?.slice(0, 18)).not.toBe(a?.slice(0, 18));
  });

  it("resends an ambiguous failure when the transport deduplicates by key, and only then", async () => {
    for (const deduplicatesByKey of [true, false]) {
      const { send, transport } = harness();
      transport.deduplicatesByKey = deduplicatesByKey;
      transport.behave((_op, call) => {
        if (call === 1) throw new TransportError("socket hang up", { ambiguous: true });
        if (call === 2) throw new PlatformError("bad gateway", { method: "x", status: 502, description: "" });
        return undefined;
      });
      const receipt = await send({ text: "hi" }, to);
      expect(receipt.ok, String(deduplicatesByKey)).toBe(deduplicatesByKey);
      expect(transport.calls).toHaveLength(deduplicatesByKey ? 3 : 1);
      expect(new Set(keys(transport.calls)).size).toBe(1);
    }
  });
});
