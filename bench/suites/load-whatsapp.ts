/**
 * The load suite's WhatsApp kind: on the real clock, N short replies spread over C people
 * and, at the same time, one long reply to another person that splits into P messages, all
 * sent at once through the WhatsApp adapter (its defaults) to the emulator (another process)
 * enforcing the number's throughput (80/s) and the pair rate (burst 45, then one per window
 * per person). The pair window runs 6 times faster on both sides (1 s instead of 6 s:
 * `WHATSAPP_LOAD_LIMITS`), so the long reply takes seconds; the pacing logic is the same.
 * Not faster: the pacer shares the 80/s among the people waiting in turn, so while the 50
 * people's replies go, each part of the long reply waits up to 50/80 s for its turn; with
 * a window shorter than that (the conformance harness's 100 ms) the long reply's burst
 * allowance fills up and is lost during that time, which Meta's 6 s never meets.
 * Reports lost and duplicated messages, the emulator's 429s and wall time over the floor.
 * Goals and absolute gates: 0 lost, 0 duplicates, 0 × 429; wall ≤ 1.05× the floor (regression-gated).
 */
import { createWhatsAppAdapter } from "@outbox/whatsapp";
import {
  type EmulatorProcess,
  startEmulatorProcess,
  WHATSAPP_LOAD_LIMITS,
  WHATSAPP_PHONE_NUMBER_ID,
  WHATSAPP_TO,
  whatsappRecipient,
} from "../support/emulator-child.js";
import { deliveryMetrics, loadReply, tally } from "../support/load-delivery.js";
import type { Metric } from "../support/metrics.js";

/** Meta's figures the emulator enforces, with the pair window scaled (see the module comment). */
const WHATSAPP = {
  throughputPerSecond: 80,
  pairBurst: 45,
  pairIntervalMs: WHATSAPP_LOAD_LIMITS.pairIntervalMs,
};

/** Shortest time the limits allow: `total` messages in all, `longest` of them to one person, in ms. */
export function whatsappFloorMs(total: number, longest: number): number {
  const throughput =
    (Math.max(0, total - WHATSAPP.throughputPerSecond) / WHATSAPP.throughputPerSecond) * 1000;
  const pair = Math.max(0, longest - WHATSAPP.pairBurst) * WHATSAPP.pairIntervalMs;
  return Math.max(throughput, pair);
}

/** A reply of `parts` paragraphs of about 3,000 characters: WhatsApp's 4,096 per message makes one message of each. */
const longReply = (parts: number) =>
  Array.from(
    { length: parts },
    (_, k) =>
      `Part **${k}**: ${"a paragraph with _some_ formatting and `code` in it, ".repeat(55).trimEnd()}`,
  ).join("\n\n");

/** Start the limited emulator early (a process takes seconds to start); run the scenario with {@link whatsappLoad}. */
export const startWhatsAppLoadEmulator = (chats: number) => startEmulatorProcess(true, "whatsapp", chats);

/** Run the WhatsApp load scenario on a started emulator (closed at the end) and return its metrics. */
export async function whatsappLoad(
  quick: boolean,
  started: Promise<EmulatorProcess>,
  chats: number,
): Promise<Metric[]> {
  const emulator = await started;
  const total = quick ? 60 : 300;
  const parts = quick ? 50 : 70;
  try {
    const adapter = createWhatsAppAdapter({
      token: emulator.token,
      phoneNumberId: WHATSAPP_PHONE_NUMBER_ID,
      graphApiUrl: emulator.apiRoot,
      limits: WHATSAPP_LOAD_LIMITS,
    });
    const began = performance.now();
    const receipts = await Promise.all([
      adapter.send({ text: longReply(parts) }, { to: WHATSAPP_TO }),
      ...Array.from({ length: total }, (_, i) =>
        adapter.send({ text: loadReply(i) }, { to: whatsappRecipient((i % chats) + 1) }),
      ),
    ]);
    const wallMs = performance.now() - began;
    await adapter.close?.();
    const seen = await emulator.stats();
    const toLong = seen.messages[WHATSAPP_TO]?.length ?? 0;
    // Every marker ("Reply 7:", "Part 12:") once, wherever the splitter put it.
    const { lost, duplicates } = tally(
      Object.values(seen.messages).flat(),
      [
        ...Array.from({ length: total }, (_, i) => `Reply ${i}:`),
        ...Array.from({ length: parts }, (_, k) => `Part ${k}:`),
      ],
      (text) => [...text.matchAll(/(?:Reply|Part) \d+:/g)].map(([marker]) => marker),
    );
    return deliveryMetrics({
      id: "load.whatsapp",
      where: `${total} replies to ${chats} people and a ${parts}-paragraph reply to one more (${toLong} messages)`,
      lost,
      duplicates,
      failed: receipts.filter((r) => !r.ok).length,
      refused429: seen.refused429,
      refusedBy:
        "the emulator's throughput (80/s) and pair rate (burst 45, then 1 per second: Meta's 6 s, 6 times faster on both sides)",
      wallMs,
      floorMs: whatsappFloorMs(total + toLong, toLong),
      floorNote: "(the pair window scaled 6 times)",
      quick,
    });
  } finally {
    emulator.close();
  }
}
