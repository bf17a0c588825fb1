import { describe, expect, it } from "vitest";
import { type AgentEvent, deliverAgentRun, TransportError } from "../../src/index.js";
import { harness } from "../engine/support/harness.js";
import { script } from "./fake-adapter.js";

const target = { to: "c1" };
const blocks = ["First block of the answer.\n\n", "Second block of it.\n\n", "Third and last block."];
const events = (): AgentEvent[] => [
  ...blocks.map((text): AgentEvent => ({ type: "text", text })),
  { type: "done" },
];
const options = { mode: "blocks" as const, minChars: 10, idleMs: 0, idempotencyKey: "run-1" };

describe("deliverAgentRun: an unreachable platform", () => {
  it("stops the run at once after one retry cycle, names each block, and the documented resend delivers the rest once", async () => {
    const { adapter, transport, clock } = harness();
    transport.behave((op) => {
      if (op.type === "text" && !op.text.plain.startsWith("First"))
        throw new TransportError("connect ECONNREFUSED 127.0.0.1:9", { ambiguous: false });
      return undefined;
    });
    const receipt = await clock.run(deliverAgentRun(script(events()), adapter, target, options).receipt);
    // Block 1 went; block 2 ran one retry cycle (4 calls, 3.5 s); block 3 was not attempted.
    expect(transport.calls).toHaveLength(5);
    expect(clock.now()).toBe(3_500);
    expect(receipt.ok).toBe(false);
    expect(receipt.failures.map((entry) => [entry.part, entry.content, entry.retryable])).toEqual([
      [1, 'text "Second block of it."', true],
      [2, 'text "Third and last block."', true],
    ]);
    expect(receipt.failures[1]?.error.message).toMatch(/^not attempted: the platform was unreachable/);

    // Resend (docs/streaming.md, "Resending what failed"): replay the run's events with the same key.
    transport.behave(() => undefined);
    const again = await clock.run(deliverAgentRun(script(events()), adapter, target, options).receipt);
    expect(again.ok).toBe(true);
    expect(transport.delivered().map((call) => (call.op.type === "text" ? call.op.text.plain : ""))).toEqual([
      "First block of the answer.",
      "Second block of it.",
      "Third and last block.",
    ]);
  });
});
