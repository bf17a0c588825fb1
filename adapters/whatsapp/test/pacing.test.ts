/**
 * Pacing at Meta's own figures, on an injected clock the emulator shares: a long reply to one
 * person (more messages than the pair rate's burst of 45) gets no 131056, because the adapter
 * declares the pair rate and the engine's pacer keeps to it (one message per 6 s after the
 * burst). The load bench runs the same on the real clock with the window scaled.
 */
import { createManualClock } from "@outbox/core";
import { afterEach, describe, expect, it } from "vitest";
import { createWhatsAppAdapter } from "../src/index.js";
import { startWhatsAppEmulator } from "../src/testing/index.js";

const TO = "15550004444";
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

describe("pacing at Meta's figures", () => {
  it("sends a 50-message reply to one person with no 429: the burst of 45, then one per 6 s", async () => {
    const clock = createManualClock(1_000_000);
    const emulator = await startWhatsAppEmulator({ now: clock.now });
    closing.push(() => emulator.close());
    emulator.seedMessage(TO, "tell me everything");
    const adapter = createWhatsAppAdapter({
      token: emulator.token,
      phoneNumberId: emulator.phoneNumberId,
      graphApiUrl: emulator.graphApiUrl,
      clock,
      retry: { maxRetries: 0 },
    });
    closing.push(async () => adapter.close?.());
    // 50 paragraphs of ~3,000 characters: WhatsApp's 4,096 per message makes one message each.
    const text = Array.from({ length: 50 }, (_, k) => `Part ${k}: ${"words ".repeat(500).trim()}`).join(
      "\n\n",
    );
    const started = clock.now();
    const receipt = await clock.run(adapter.send({ text }, { to: TO }));
    expect(receipt.ok).toBe(true);
    expect(receipt.messages).toHaveLength(50);
    expect(emulator.rateLimitRefusals()).toBe(0);
    // Five messages past the burst, one per 6 s (less the pacer's margin, plus its latency allowance).
    expect(clock.now() - started).toBeGreaterThanOrEqual(5 * 6000 * 0.99 - 1000);
    expect(clock.now() - started).toBeLessThan(5 * 6000 + 7000);
  });
});
