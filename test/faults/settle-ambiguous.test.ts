import { createManualClock, type DeliveryReceipt, type Fault, type SendOptions } from "@outbox/core";
import { describe, expect, it } from "vitest";
import { type FaultPlatform, platforms } from "./platforms.js";
import { threePartReply } from "./three-part-reply.js";

const { markers, workspace, reply } = threePartReply("sa");

/** Send the reply with the fault on the middle part, then again with `ambiguous`; what each receipt said and how often each part shows. */
async function settle(
  platform: FaultPlatform,
  fault: Fault,
  ambiguous: NonNullable<SendOptions["ambiguous"]>,
): Promise<{ first: DeliveryReceipt; second: DeliveryReceipt; third: DeliveryReceipt; shown: number[] }> {
  const clock = createManualClock();
  const rig = await platform.start({
    clock,
    media: { localRoots: [workspace], workspaceDir: workspace },
    timeoutMs: 1_000,
  });
  try {
    const to = { to: rig.to };
    rig.inject({ ...fault, method: platform.requests[0], skip: 1 } as Fault);
    const first = await clock.run(rig.adapter.send(reply(platform), to, { idempotencyKey: "turn-9" }));
    const second = await clock.run(
      rig.adapter.send(reply(platform), to, { idempotencyKey: "turn-9", ambiguous }),
    );
    // A later plain repeat finds everything settled: it sends and reports nothing.
    const third = await clock.run(rig.adapter.send(reply(platform), to, { idempotencyKey: "turn-9" }));
    const shown = markers.map(
      (marker) => rig.observe().filter((m) => JSON.stringify(m).includes(marker)).length,
    );
    return { first, second, third, shown };
  } finally {
    await rig.close();
  }
}

for (const platform of platforms.filter((candidate) => !candidate.deduplicates))
  describe(`settling an unsure part: ${platform.name}`, () => {
    it('timeout after the platform processed it, then ambiguous "delivered": complete, no second message', async () => {
      const { first, second, third, shown } = await settle(
        platform,
        { kind: "timeout-after-processed" },
        "delivered",
      );
      expect(first.failures.map((f) => [f.part, f.ambiguous])).toEqual([[1, true]]);
      expect(second.ok).toBe(true);
      expect(second.failures).toEqual([]);
      expect(second.messages.map((m) => m.part)).toEqual(expect.arrayContaining([0, 2]));
      expect(third.ok).toBe(true);
      expect(shown).toEqual([1, 1, 1]);
    });

    it('a 5xx that stored nothing, then ambiguous "resend": the missing part arrives once, nothing else again', async () => {
      const { first, second, third, shown } = await settle(
        platform,
        { kind: "server-error", status: 503 },
        "resend",
      );
      expect(first.failures.map((f) => [f.part, f.ambiguous])).toEqual([[1, true]]);
      expect(second.ok).toBe(true);
      expect(second.messages.some((m) => m.part === 1)).toBe(true);
      expect(third.ok).toBe(true);
      expect(shown).toEqual([1, 1, 1]);
    });
  });
