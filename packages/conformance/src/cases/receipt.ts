import type { Capabilities, MediaKind } from "@outbox/core";
import { expect } from "vitest";
import { unobservable } from "../case-unobservable.js";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, ConformanceCase } from "../types.js";
import { expectDelivered, send } from "./helpers.js";

const MEDIA_KINDS: MediaKind[] = ["image", "animation", "video", "audio", "document"];

/** A mixed reply: text over the caption limit (so it is its own part) followed by three media items. */
async function sendMixed(ctx: CaseContext) {
  const media = await conformanceMedia();
  const captionLimit = ctx.capabilities.caption?.maxLength ?? 0;
  const text = `Mixed reply. ${"m".repeat(Math.min(captionLimit + 1, ctx.capabilities.text.maxLength - 20))}`;
  return send(ctx, { text, mediaUrls: [media.file("png"), media.url("pdf"), media.file("mp3")] });
}

/** Receipt and capability cases. */
export const receiptCases: ConformanceCase[] = [
  {
    id: "receipt.order",
    checks:
      "For a mixed reply, the receipt lists exactly the observed messages: same count, kinds, order; parts ascending.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const result = await sendMixed(ctx);
      expectDelivered(result);
      expect(result.observed.length).toBeGreaterThanOrEqual(3);
    },
  },
  {
    id: "receipt.ids",
    checks:
      "A mixed reply arrives (three messages or more) and every id in its receipt is the platform's id of that message: replying to it reaches that message.",
    gate: "replies",
    applies: (c) => (c.replies ? true : "replies is false"),
    exercises: ["replies"],
    async run(ctx) {
      const result = await sendMixed(ctx);
      expectDelivered(result);
      expect(result.observed.length, "messages that arrived").toBeGreaterThanOrEqual(3);
      for (const message of result.receipt.messages) {
        const ack = await send(ctx, { text: `ack ${message.id}`, replyToId: message.id });
        expectDelivered(ack);
        expect(ack.receipt.degraded, `reply to ${message.id} degraded`).toEqual([]);
        expect(ack.observed[0]?.replyTo, `reply to receipt id ${message.id}`).toBe(message.id);
      }
    },
  },
  {
    id: "pacing.concurrent",
    checks:
      "`2 × burst + 1` concurrent sends to one target (burst of the tightest declared limit that applies) are all delivered once, and the emulator answered no 429 under its own limits (`rateLimitRefusals()`).",
    gate: "rateLimits (non-empty)",
    applies: (c) => c.rateLimits.length > 0 || "no rateLimits declared",
    exercises: ["rateLimits"],
    async run(ctx) {
      const before = ctx.rateLimitRefusals?.();
      const texts = Array.from(
        { length: 2 * tightestBurst(ctx.capabilities, ctx.target.to) + 1 },
        (_, i) => `concurrent ${i + 1}`,
      );
      const receipts = await Promise.all(texts.map((text) => ctx.adapter.send({ text }, ctx.target)));
      if (before !== undefined)
        expect(
          (ctx.rateLimitRefusals?.() ?? 0) - before,
          "429s the platform answered under its own limits (the pacer must prevent them)",
        ).toBe(0);
      for (const receipt of receipts) expect(receipt.ok).toBe(true);
      expect(
        ctx
          .observe()
          .map((m) => m.text)
          .sort(),
      ).toEqual([...texts].sort());
      if (before === undefined)
        unobservable(
          ctx,
          "pacing.concurrent needs the harness's rateLimitRefusals() (the emulator's count of 429s under its own limits) to see whether the pacer kept the platform from refusing",
        );
    },
  },
  {
    id: "capabilities.shape",
    checks:
      "Capabilities are frozen plain JSON, stable across reads, and internally consistent (limits positive, album rules within kinds, …).",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      const caps = ctx.adapter.capabilities;
      expect(JSON.parse(JSON.stringify(caps))).toEqual(caps);
      expect(ctx.adapter.capabilities).toEqual(caps);
      expect(Object.isFrozen(caps), "capabilities frozen").toBe(true);
      expectConsistent(caps);
    },
  },
];

/** The smallest bucket (burst, else limit) among the declared limits that apply to a target; 1 when none applies. */
function tightestBurst(caps: Capabilities, to: string): number {
  const applicable = caps.rateLimits.filter(
    (limit) => limit.match === undefined || new RegExp(limit.match).test(to),
  );
  return applicable.length === 0 ? 1 : Math.min(...applicable.map((limit) => limit.burst ?? limit.limit));
}

/** Limits positive and rules within the declared kinds. */
function expectConsistent(caps: Capabilities): void {
  expect(caps.text.maxLength).toBeGreaterThan(0);
  expect(caps.text.chunkLength ?? caps.text.maxLength).toBeLessThanOrEqual(caps.text.maxLength);
  if (caps.caption) expect(caps.caption.maxLength).toBeGreaterThan(0);
  expect(caps.media.kinds.length).toBeGreaterThan(0);
  for (const kind of caps.media.kinds) expect(MEDIA_KINDS).toContain(kind);
  expect(caps.media.maxBytes.default).toBeGreaterThan(0);
  if (caps.album) {
    expect(caps.album.minItems).toBeGreaterThanOrEqual(1);
    expect(caps.album.minItems).toBeLessThanOrEqual(caps.album.maxItems);
    for (const group of caps.album.groups) for (const kind of group) expect(caps.media.kinds).toContain(kind);
  }
  expect(["native", "as-audio"]).toContain(caps.voice.mode);
  if (caps.voice.mode === "native") expect(caps.voice.formats.length).toBeGreaterThan(0);
  for (const limit of caps.rateLimits) {
    expect(limit.limit).toBeGreaterThan(0);
    expect(limit.intervalMs).toBeGreaterThan(0);
  }
  if (caps.edits != null) expect(caps.edits.minIntervalMs, "edits.minIntervalMs").toBeGreaterThanOrEqual(0);
}
