import { type Capabilities, type ReplyPayloadInput, UnsupportedFeatureError } from "@outbox/core";
import { expect } from "vitest";
import { conformanceMedia } from "../media-server.js";
import type { CaseContext, CaseDefinition } from "../types.js";
import { anchor, expectDegraded, expectDelivered, normalize, send, threadTarget } from "./helpers.js";

/** The four kinds of operation replies and threads must survive. */
const OPERATIONS: Array<{
  op: string;
  gate?: (c: Capabilities) => true | string;
  payload(): Promise<ReplyPayloadInput>;
}> = [
  { op: "text", payload: async () => ({ text: "A reply in words." }) },
  { op: "media", payload: async () => ({ mediaUrls: [(await conformanceMedia()).file("png")] }) },
  {
    op: "album",
    gate: (c) => c.album !== null || "album is null",
    payload: async () => {
      const media = await conformanceMedia();
      return { mediaUrls: [media.file("png"), media.url("jpeg")] };
    },
  },
  {
    op: "voice",
    payload: async () => ({ mediaUrls: [(await conformanceMedia()).file("ogg")], audioAsVoice: true }),
  },
];

/** A text long enough to need two chunks or more. */
function longText(c: Capabilities): string {
  const size = c.text.chunkLength ?? c.text.maxLength;
  return Array.from({ length: Math.ceil((size * 1.5) / 6) }, (_, i) => `r${i}`.padEnd(5, "y")).join(" ");
}

const both =
  (feature: "replies" | "threads", extra?: (c: Capabilities) => true | string) =>
  (c: Capabilities): true | string =>
    !c[feature] ? `${feature} is false` : (extra?.(c) ?? true);

/** One case per operation kind (`<prefix>.text`, `.media`, `.album`, `.voice`) for a feature. */
function perOperation(
  prefix: string,
  feature: "replies" | "threads",
  checks: (op: string) => string,
  run: (ctx: CaseContext, payload: ReplyPayloadInput) => Promise<void>,
): CaseDefinition[] {
  return OPERATIONS.map(({ op, gate, payload }) => ({
    id: `${prefix}.${op}`,
    checks: checks(op),
    gate: gate ? `${feature} + album` : feature,
    applies: both(feature, gate),
    exercises: [feature],
    run: async (ctx) => run(ctx, await payload()),
  }));
}

/** Undeclared replies/threads: refused with UnsupportedFeatureError before any call, or sent without it and degraded. */
async function expectUndeclared(
  ctx: CaseContext,
  feature: "replies" | "threads",
  run: () => Promise<unknown>,
) {
  const before = ctx.observe().length;
  let receipt: Awaited<ReturnType<typeof ctx.adapter.send>>;
  try {
    receipt = (await run()) as typeof receipt;
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedFeatureError);
    expect((error as UnsupportedFeatureError).feature).toBe(feature);
    expect(ctx.observe().length, "no platform call before the refusal").toBe(before);
    return;
  }
  const observed = ctx.observe().slice(before);
  expectDelivered({ receipt, observed });
  expectDegraded(receipt);
  for (const m of observed) expect(feature === "replies" ? m.replyTo : m.thread).toBeUndefined();
}

/** Reply and thread cases: every operation, chunked text, reply modes, missing targets, undeclared features. */
export const replyCases: CaseDefinition[] = [
  ...perOperation(
    "reply",
    "replies",
    (op) => `A ${op} reply carries the reply reference to the anchor message.`,
    async (ctx, payload) => {
      const replyTo = await anchor(ctx, "reply target");
      const result = await send(ctx, { ...payload, replyToId: replyTo });
      expectDelivered(result);
      expect(result.receipt.degraded.filter((d) => /repl/i.test(`${d.from} ${d.to}`))).toEqual([]);
      expect(result.observed[0]?.replyTo, "reply reference of the first message").toBe(replyTo);
    },
  ),
  ...perOperation(
    "thread",
    "threads",
    (op) => `A ${op} message sent to a thread lands in that thread.`,
    async (ctx, payload) => {
      const target = await threadTarget(ctx);
      const result = await send(ctx, payload, undefined, target);
      expectDelivered(result);
      expect(result.observed.length).toBeGreaterThan(0);
      for (const m of result.observed) expect(m.thread, "thread of every message").toBe(target.thread);
    },
  ),
  {
    id: "reply.split.first",
    checks: "A split text replies with its first chunk only (default `replyMode: first`).",
    gate: "replies",
    applies: both("replies"),
    exercises: ["replies"],
    async run(ctx) {
      const replyTo = await anchor(ctx, "reply.split.first");
      const result = await send(ctx, { text: longText(ctx.capabilities), replyToId: replyTo });
      expectDelivered(result);
      expect(
        result.observed.map((m) => m.replyTo),
        "reply references (first chunk only)",
      ).toEqual(result.observed.map((_, i) => (i === 0 ? replyTo : undefined)));
    },
  },
  {
    id: "reply.mode.all",
    checks: "With `replyMode: all`, every chunk of a split text carries the reply reference.",
    gate: "replies",
    applies: both("replies"),
    exercises: ["replies"],
    async run(ctx) {
      const replyTo = await anchor(ctx, "reply.mode.all");
      const result = await send(
        ctx,
        { text: longText(ctx.capabilities), replyToId: replyTo },
        { replyMode: "all" },
      );
      expectDelivered(result);
      expect(result.observed.length, "chunks delivered").toBeGreaterThanOrEqual(2);
      for (const m of result.observed) expect(m.replyTo, "reply reference of every chunk").toBe(replyTo);
    },
  },
  {
    id: "reply.mode.off",
    checks:
      "With `replyMode: off`, no part (text chunks, then media) carries a reply reference, although `replyToId` is given.",
    gate: "replies",
    applies: both("replies"),
    exercises: ["replies"],
    async run(ctx) {
      const replyTo = await anchor(ctx, "reply.mode.off");
      const media = await conformanceMedia();
      const result = await send(
        ctx,
        { text: longText(ctx.capabilities), mediaUrls: [media.file("png")], replyToId: replyTo },
        { replyMode: "off" },
      );
      expectDelivered(result);
      expect(result.observed.length, "parts delivered").toBeGreaterThanOrEqual(3);
      expect(
        result.observed.map((m) => m.replyTo),
        "reply references (none with replyMode off)",
      ).toEqual(result.observed.map(() => undefined));
    },
  },
  {
    id: "reply.missing",
    checks:
      "A reply to a message that does not exist is still delivered, nothing lost: where the platform refuses it (`replies` true or `unknownTarget: refused`) without the reference and with a `degraded` entry saying so; where it declares `unknownTarget: ignored`, as the platform shows it.",
    gate: "replies",
    applies: both("replies"),
    exercises: ["replies"],
    async run(ctx) {
      const missing = ctx.unknownMessageId ?? "404404404";
      const text = "Replying to a vanished message.";
      const result = await send(ctx, { text, replyToId: missing });
      expectDelivered(result);
      expect(result.observed, "messages delivered").toHaveLength(1);
      expect(normalize(result.observed[0]?.text ?? ""), "visible text").toBe(text);
      const { replies } = ctx.capabilities;
      if (typeof replies === "object" && replies.unknownTarget === "ignored") return;
      expect(
        result.observed[0]?.replyTo,
        `reply reference (the platform is declared to refuse a reply to unknown message ${missing}, so the reply goes out without it; declare replies.unknownTarget "ignored" if it delivers one)`,
      ).toBeUndefined();
      expectDegraded(result.receipt, 0);
    },
  },
  {
    id: "thread.split",
    checks: "Every chunk of a split text lands in the thread.",
    gate: "threads",
    applies: both("threads"),
    exercises: ["threads"],
    async run(ctx) {
      const target = await threadTarget(ctx);
      const result = await send(ctx, { text: longText(ctx.capabilities) }, undefined, target);
      expectDelivered(result);
      expect(result.observed.length, "chunks delivered").toBeGreaterThanOrEqual(2);
      for (const m of result.observed) expect(m.thread, "thread of every chunk").toBe(target.thread);
    },
  },
  {
    id: "undeclared.replies",
    checks:
      "Without `replies`, a reply is refused with `UnsupportedFeatureError` before any call, or sent plain with a `degraded` entry.",
    gate: "replies = false",
    applies: (c) => !c.replies || "replies is declared",
    exercises: [],
    async run(ctx) {
      const replyTo = await anchor(ctx, "undeclared.replies");
      await expectUndeclared(ctx, "replies", () =>
        ctx.adapter.send({ text: "reply?", replyToId: replyTo }, ctx.target),
      );
    },
  },
  {
    id: "undeclared.threads",
    checks:
      "Without `threads`, a thread target is refused with `UnsupportedFeatureError` before any call, or sent outside it with a `degraded` entry.",
    gate: "threads = false",
    applies: (c) => !c.threads || "threads is declared",
    exercises: [],
    async run(ctx) {
      await expectUndeclared(ctx, "threads", () =>
        ctx.adapter.send({ text: "thread?" }, { ...ctx.target, thread: "1" }),
      );
    },
  },
];
