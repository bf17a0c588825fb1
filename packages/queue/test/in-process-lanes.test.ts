/**
 * The in-process outbox's lanes (one FIFO per target) on an in-test ChannelAdapter (our own
 * interface, not a client library) that answers at once: order per target, one job per
 * target at a time, and dequeues that do not move the jobs still waiting.
 */
import type { ChannelAdapter, DeliveryReceipt, ReplyPayloadInput, Target } from "@outbox/core";
import { telegramCapabilities } from "@outbox/telegram";
import { describe, expect, it } from "vitest";
import { createOutbox } from "../src/index.js";

/** An adapter that records each send as [to, text] and checks no target has two at once. */
function recordingAdapter() {
  const sent: Array<[string, string]> = [];
  const busy = new Set<string>();
  let overlaps = 0;
  const adapter: ChannelAdapter = {
    name: "recording",
    // The lanes never read capabilities; any valid set does.
    capabilities: telegramCapabilities,
    async send(payload: ReplyPayloadInput, target: Target): Promise<DeliveryReceipt> {
      if (busy.has(target.to)) overlaps += 1;
      busy.add(target.to);
      await Promise.resolve();
      sent.push([target.to, String(payload.text)]);
      busy.delete(target.to);
      return {
        ok: true,
        messages: [{ id: String(sent.length), kind: "text", part: 0 }],
        failures: [],
        degraded: [],
      };
    },
  };
  return { adapter, sent, overlaps: () => overlaps };
}

describe("in-process lanes", () => {
  it("deliver each target's jobs in enqueue order, one at a time, with targets interleaved", async () => {
    const { adapter, sent, overlaps } = recordingAdapter();
    const outbox = await createOutbox({ adapters: { recording: () => adapter } });
    const targets = ["a", "b", "c", "d", "e"];
    const ids: string[] = [];
    for (let i = 0; i < 500; i += 1) {
      const to = targets[(i * 7) % targets.length] as string;
      ids.push((await outbox.enqueue("recording", { text: `${to}${i}` }, { to })).id);
    }
    await outbox.createWorker({ concurrency: 3 });
    await Promise.all(ids.map((id) => outbox.receipt(id)));
    expect(sent).toHaveLength(500);
    for (const to of targets) {
      const asked = ids.flatMap((_, i) => (targets[(i * 7) % targets.length] === to ? [`${to}${i}`] : []));
      expect(sent.filter(([target]) => target === to).map(([, text]) => text)).toEqual(asked);
    }
    expect(overlaps()).toBe(0);
    // Three slots over five targets: the first sends go to three different targets.
    expect(new Set(sent.slice(0, 3).map(([to]) => to)).size).toBe(3);
    await outbox.close();
  });

  it("a 10,000-job lane dequeues without moving the jobs behind (no Array.prototype.shift over the lane)", async () => {
    const { adapter, sent } = recordingAdapter();
    const outbox = await createOutbox({ adapters: { recording: () => adapter } });
    const jobs = 10_000;
    const ids: string[] = [];
    for (let i = 0; i < jobs; i += 1)
      ids.push((await outbox.enqueue("recording", { text: String(i) }, { to: "long" })).id);
    // Count the items Array.prototype.shift moves while the lane drains: a dequeue that
    // shifts the lane's array moves every job behind it (about jobs² / 2 in all).
    const shift = Array.prototype.shift;
    let moved = 0;
    Array.prototype.shift = function (this: unknown[]) {
      moved += this.length;
      return shift.call(this);
    };
    try {
      await outbox.createWorker({ concurrency: 4 });
      await Promise.all(ids.map((id) => outbox.receipt(id)));
    } finally {
      Array.prototype.shift = shift;
    }
    expect(sent.map(([, text]) => Number(text))).toEqual(Array.from({ length: jobs }, (_, i) => i));
    expect(moved).toBeLessThan(jobs * 10);
    await outbox.close();
  });
});
