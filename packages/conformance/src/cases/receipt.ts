import type { Capabilities, MediaKind } from "@outbox/core";
import { expect } from "vitest";
import { unobservable } from "../case-unobservable.js";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, CaseDefinition } from "../types.js";
import {
  expectBytes,
  expectDelivered,
  mediaMessages,
  type SendResult,
  send,
  visibleText,
} from "./helpers.js";

const MEDIA_KINDS: MediaKind[] = ["image", "animation", "video", "audio", "document"];

/**
 * A mixed reply: text over the caption limit (so it is its own part) followed by three media
 * items. It must arrive whole (the text and each file's bytes), delivered, as at least three
 * messages, or at least one where the harness declares `combines.textAndFiles`.
 */
async function sendMixed(ctx: CaseContext): Promise<SendResult> {
  const media = await conformanceMedia();
  const captionLimit = ctx.capabilities.caption?.maxLength ?? 0;
  const text = `Mixed reply. ${"m".repeat(Math.min(captionLimit + 1, ctx.capabilities.text.maxLength - 20))}`;
  const result = await send(ctx, {
    text,
    mediaUrls: [media.file("png"), media.url("pdf"), media.file("mp3")],
  });
  expectDelivered(result);
  const combined = ctx.combines.textAndFiles !== undefined;
  const least = combined ? 1 : 3;
  expect(
    result.observed.length,
    `messages the mixed reply arrived as (text, then a PNG, a PDF and an MP3: at least ${least}${combined ? ", as `combines.textAndFiles` is declared" : "; a platform that sends text and files as one message declares `harness.combines.textAndFiles`"})`,
  ).toBeGreaterThanOrEqual(least);
  // Compared without whitespace: a split may cut the run of letters between chunks.
  const shown = visibleText(result.observed).replace(/\s+/g, "");
  expect(
    shown === text.replace(/\s+/g, ""),
    `the mixed reply's text arrived whole (${shown.length} letters shown of ${text.replace(/\s+/g, "").length})`,
  ).toBe(true);
  const files = mediaMessages(result.observed);
  expect(files, "the mixed reply's files").toHaveLength(3);
  expectBytes(files[0], "png");
  expectBytes(files[1], "pdf");
  expectBytes(files[2], "mp3");
  return result;
}

/** Receipt and capability cases. */
export const receiptCases: CaseDefinition[] = [
  {
    id: "receipt.order",
    checks:
      "A mixed reply arrives whole (its text and each file's bytes, in order) as three messages or more (one or more with `combines.textAndFiles`), and the receipt lists exactly the observed messages: same count, kinds, order; parts ascending.",
    gate: "always",
    applies: () => true,
    exercises: [],
    async run(ctx) {
      await sendMixed(ctx);
    },
  },
  {
    id: "receipt.ids",
    checks:
      "A mixed reply arrives whole, as for `receipt.order`, and every id in its receipt is the platform's id of that message: replying to it reaches that message.",
    gate: "replies",
    applies: (c) => (c.replies ? true : "replies is false"),
    exercises: ["replies"],
    async run(ctx) {
      const result = await sendMixed(ctx);
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
    id: "pacing.media",
    checks:
      "After one media send, `2 × burst + 1` concurrent media sends (a PNG each) to one target are all delivered once, and the emulator answered no 429 under its own limits: a limit the platform counts in requests (an upload and a post) is declared so (`rateLimits[].requests`).",
    gate: "rateLimits (non-empty)",
    applies: (c) => c.rateLimits.length > 0 || "no rateLimits declared",
    exercises: ["rateLimits"],
    async run(ctx) {
      const media = await conformanceMedia();
      const count = 2 * tightestBurst(ctx.capabilities, ctx.target.to) + 1;
      // One send first, alone: what an adapter loads on its first media send is not a pacing matter.
      expect(
        (await ctx.adapter.send({ mediaUrls: [media.file("png")] }, ctx.target)).ok,
        "a first media send",
      ).toBe(true);
      const before = ctx.rateLimitRefusals?.();
      const receipts = await Promise.all(
        Array.from({ length: count }, () => ctx.adapter.send({ mediaUrls: [media.file("png")] }, ctx.target)),
      );
      if (before !== undefined)
        expect(
          (ctx.rateLimitRefusals?.() ?? 0) - before,
          "429s the platform answered under its own limits to media sends (declare the requests each makes: rateLimits[].requests)",
        ).toBe(0);
      for (const receipt of receipts)
        expect(
          receipt.failures.map((f) => `part ${f.part}: ${f.error.message}`),
          "failures of a media send under load",
        ).toEqual([]);
      const files = mediaMessages(ctx.observe());
      expect(files, "media messages delivered").toHaveLength(count + 1);
      for (const file of files) expectBytes(file, "png");
      if (before === undefined)
        unobservable(
          ctx,
          "pacing.media needs the harness's rateLimitRefusals() (the emulator's count of 429s under its own limits) to see whether the pacer kept the platform from refusing",
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
  // An upload limit of 0 is a kind never uploaded; such a platform must fetch by URL instead.
  for (const limit of Object.values(caps.media.maxBytes)) expect(limit).toBeGreaterThanOrEqual(0);
  if (caps.media.maxBytes.default === 0) expect(caps.media.byUrl, "media.byUrl").toBeDefined();
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
