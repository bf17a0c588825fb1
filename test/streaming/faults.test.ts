/**
 * docs/streaming.md, "Simulating failures": a fault one call away on the emulated channel,
 * and receipts that say what failed and what to do, on the Telegram and Slack emulators.
 */
import { type AgentEvent, deliverAgentRun, type Fault } from "@outbox/core";
import { createEmulatedChannel as slack } from "@outbox/slack/testing";
import { createEmulatedChannel as telegram } from "@outbox/telegram/testing";
import { describe, expect, it } from "vitest";

const channels = [
  ["telegram", telegram],
  ["slack", slack],
] as const;

async function* answer(): AsyncGenerator<AgentEvent> {
  yield { type: "text", text: "Revenue grew 12%." };
  yield { type: "done" };
}

describe.each(channels)("faults one call away on the %s emulated channel", (_name, open) => {
  const through = async (fault: Fault) => {
    const channel = await open();
    try {
      channel.inject(fault);
      const receipt = await deliverAgentRun(answer(), channel.adapter, channel.target).receipt;
      return { receipt, observed: channel.observe(), emulator: channel.emulator };
    } finally {
      await channel.close();
    }
  };

  it("a 502: the failure names the text, is ambiguous, not retryable, and says to check before resending", async () => {
    const { receipt, emulator } = await through({ kind: "server-error", status: 502 });
    expect(emulator).toBeDefined();
    expect(receipt.ok).toBe(false);
    expect(receipt.failures).toEqual([
      expect.objectContaining({
        part: 0,
        content: 'text "Revenue grew 12%."',
        ambiguous: true,
        retryable: false,
        action: expect.stringMatching(
          /^it may have been delivered \(the platform answered 502\): look in the chat/,
        ),
      }),
    ]);
  });

  it("a platform refusal: not ambiguous, not retryable, and the action says sending it again fails again", async () => {
    const { receipt } = await through({ kind: "reject", description: "Bad Request: refused" });
    expect(receipt.failures[0]).toMatchObject({
      ambiguous: false,
      retryable: false,
      action: expect.stringMatching(/fix what its description says/),
    });
  });

  it("a short 429 is waited out and delivered once", async () => {
    const { receipt, observed } = await through({ kind: "rate-limit", retryAfterMs: 20 });
    expect(receipt.ok).toBe(true);
    expect(observed.map((message) => message.text)).toEqual(["Revenue grew 12%."]);
  });
});
