import { MediaError, PlatformError, RateLimitedError, systemClock, TransportError } from "@outbox/core";
import { expect } from "vitest";
import { conformanceMedia } from "../media-server.js";
import type { CaseDefinition } from "../types.js";
import {
  expectBytes,
  expectDelivered,
  expectReceiptMatches,
  mediaMessages,
  send,
  sendFailing,
  visibleText,
} from "./helpers.js";

/** Small waits keep the fault cases fast. */
const RETRY_AFTER_MS = 120;
/** More faults in a row than any bounded retry policy retries. */
const PERSISTENT = 50;

/** Words of a text that needs `chunks` chunks or more. */
function chunkedWords(maxLength: number, chunks: number): string[] {
  return Array.from({ length: Math.ceil((maxLength * (chunks - 0.5)) / 6) }, (_, i) =>
    `f${i}`.padEnd(5, "q"),
  );
}

/** Fault cases: 429, 5xx, resets, refusals, partial failure, once-only delivery. */
export const faultCases: CaseDefinition[] = [
  {
    id: "fault.rate-limit",
    checks:
      "A 429 is honoured: the retry waits at least `retry_after`, then the message is delivered exactly once.",
    gate: "always",
    applies: () => true,
    exercises: ["rateLimits"],
    async run(ctx) {
      ctx.inject({ kind: "rate-limit", retryAfterMs: RETRY_AFTER_MS, times: 1 });
      const started = ctx.clock.now();
      const result = await send(ctx, { text: "After the rate limit." });
      const waited = ctx.clock.now() - started;
      expectDelivered(result);
      expect(result.observed.map((m) => m.text)).toEqual(["After the rate limit."]);
      // Real timers may fire a millisecond or two early; a virtual clock's wait is exact.
      const early = ctx.clock === systemClock ? 2 : 0;
      expect(waited, "ms waited before the retry").toBeGreaterThanOrEqual(RETRY_AFTER_MS - early);
    },
  },
  {
    id: "fault.rate-limit.exhausted",
    checks:
      "A 429 that never ends becomes a `RateLimitedError` with `retryAfterMs` after a bounded number of retries.",
    gate: "always",
    applies: () => true,
    exercises: ["rateLimits"],
    async run(ctx) {
      ctx.inject({ kind: "rate-limit", retryAfterMs: 40, times: PERSISTENT });
      await sendFailing(ctx, { text: "Never delivered." }, (error) => {
        expect(error).toBeInstanceOf(RateLimitedError);
        expect((error as RateLimitedError).retryAfterMs).toBe(40);
      });
      expect(ctx.observe()).toEqual([]);
    },
  },
  {
    id: "fault.server-error",
    checks:
      "A persistent 5xx becomes a `PlatformError` carrying the status; nothing is recorded as delivered.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      ctx.inject({ kind: "server-error", status: 503, times: PERSISTENT });
      const result = await sendFailing(ctx, { text: "Server trouble." }, (error) => {
        expect(error).toBeInstanceOf(PlatformError);
        expect((error as PlatformError).status).toBe(503);
      });
      expect(ctx.observe()).toEqual([]);
      expect(result?.receipt.messages ?? []).toEqual([]);
    },
  },
  {
    id: "fault.reset",
    checks:
      "After a reset of a request the platform processed, the message shows exactly once: a transport that deduplicates by key (`deduplicatesByKey`) may resend it under the same key and list it delivered; any other reports the part `ambiguous`. Resets on every call become a `TransportError` marked `ambiguous` after bounded retries, nothing delivered.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const text = "Reset after it arrived.";
      ctx.inject({ kind: "reset-after-processed" });
      const result = await send(ctx, { text });
      expect(
        result.observed.map((m) => m.text),
        "messages after a reset of a processed request (a resend is safe only where the platform deduplicates by key: Transport.deduplicatesByKey)",
      ).toEqual([text]);
      const [failure] = result.receipt.failures;
      if (failure === undefined) expectDelivered(result);
      else {
        expect(failure.error, "the failure of a reset after processing").toBeInstanceOf(TransportError);
        expect(failure.ambiguous, "a reset after processing is reported ambiguous").toBe(true);
        expect(result.receipt.messages, "nothing listed as delivered for the ambiguous part").toEqual([]);
      }
      const before = ctx.observe().length;
      ctx.inject({ kind: "reset", times: PERSISTENT });
      await sendFailing(ctx, { text: "Reset." }, (error) => {
        expect(error).toBeInstanceOf(TransportError);
        expect((error as TransportError).ambiguous).toBe(true);
      });
      expect(ctx.observe().slice(before), "messages after resets before processing").toEqual([]);
    },
  },
  {
    id: "fault.reject",
    checks:
      "A platform 400 becomes a `PlatformError` with status 400 and the platform's description; nothing delivered.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      ctx.inject({ kind: "reject", description: "Bad Request: conformance refusal" });
      await sendFailing(ctx, { text: "Refused." }, (error) => {
        expect(error).toBeInstanceOf(PlatformError);
        expect((error as PlatformError).status).toBe(400);
        expect((error as PlatformError).description).toContain("conformance refusal");
      });
      expect(ctx.observe()).toEqual([]);
    },
  },
  {
    id: "fault.partial.load",
    checks:
      "A media item that cannot be loaded (middle of three) fails alone; the items before and after are delivered.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const result = await send(ctx, { mediaUrls: [media.file("pdf"), media.missingFile, media.url("png")] });
      expect(result.receipt.ok).toBe(false);
      expect(result.receipt.failures).toHaveLength(1);
      expect(result.receipt.failures[0]?.error).toBeInstanceOf(MediaError);
      const delivered = mediaMessages(result.observed);
      expect(delivered).toHaveLength(2);
      expectBytes(delivered[0], "pdf");
      expectBytes(delivered[1], "png");
      expectReceiptMatches(result);
    },
  },
  {
    id: "fault.partial.platform",
    checks:
      "When the platform refuses one part of a split text, every later part is still delivered; the receipt is not `ok`, names the failed part with a `PlatformError` and lists only the delivered parts.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const words = chunkedWords(ctx.capabilities.text.chunkLength ?? ctx.capabilities.text.maxLength, 3);
      ctx.inject({ kind: "reject", description: "Bad Request: conformance refusal" });
      const result = await send(ctx, { text: words.join(" ") });
      expect(result.receipt.ok, "receipt.ok with a failed part").toBe(false);
      expect(result.receipt.failures.map((f) => f.part)).toEqual([0]);
      expect(result.receipt.failures[0]?.error).toBeInstanceOf(PlatformError);
      expect((result.receipt.failures[0]?.error as PlatformError | undefined)?.description).toContain(
        "conformance refusal",
      );
      expect(
        result.receipt.messages.map((m) => m.part),
        "the failed part has no message",
      ).not.toContain(0);
      expect(result.observed.length, "later parts delivered").toBeGreaterThanOrEqual(2);
      expect(result.receipt.messages[0]?.part).toBe(1);
      const seen = visibleText(result.observed).split(" ");
      expect(seen, "later parts whole").toEqual(words.slice(words.length - seen.length));
      expectReceiptMatches(result);
    },
  },
  {
    id: "idempotency.repeat",
    checks:
      "A send delivered once (something must arrive) and repeated with the same `idempotencyKey` delivers nothing twice and returns the same receipt.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const media = await conformanceMedia();
      const payload = { text: "Once only.", mediaUrls: [media.file("pdf")] };
      const first = await send(ctx, payload, { idempotencyKey: "conformance-repeat" });
      expectDelivered(first);
      expectBytes(mediaMessages(first.observed)[0], "pdf");
      expect(visibleText(first.observed), "first send delivered the text").toBe("Once only.");
      const second = await send(ctx, payload, { idempotencyKey: "conformance-repeat" });
      expect(second.observed, "nothing delivered again").toEqual([]);
      expect(second.receipt.messages).toEqual(first.receipt.messages);
      expect(second.receipt.ok).toBe(true);
    },
  },
  {
    id: "idempotency.resume",
    checks:
      "After a partial failure, repeating the send with the same key delivers only the missing part: every chunk exactly once.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const words = chunkedWords(ctx.capabilities.text.chunkLength ?? ctx.capabilities.text.maxLength, 3);
      const options = { idempotencyKey: "conformance-resume" };
      ctx.inject({ kind: "reject", description: "Bad Request: conformance refusal" });
      const first = await send(ctx, { text: words.join(" ") }, options);
      expect(first.receipt.failures.map((f) => f.part)).toEqual([0]);
      const second = await send(ctx, { text: words.join(" ") }, options);
      expect(second.receipt.ok).toBe(true);
      expect(second.observed, "only the failed part is sent again").toHaveLength(1);
      const parts = second.receipt.messages.map((m) => m.part);
      expect(parts).toEqual(parts.map((_, i) => i));
      const all = visibleText(ctx.observe()).split(" ");
      expect([...all].sort(), "every word exactly once").toEqual([...words].sort());
    },
  },
];
