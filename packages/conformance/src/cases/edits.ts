/**
 * Live previews (`capabilities.edits`): a reply streamed into one message, edited while it
 * is written, then settled into the final reply. Settling must leave the channel showing
 * exactly what a plain `send` of the same payload shows, with the edit history in
 * `revisions`, and no edit refused along the way.
 */
import type { Capabilities, DeliveryReceipt, LivePreview, ReplyPayloadInput, Target } from "@outbox/core";
import { expect } from "vitest";
import { unobservable } from "../case-unobservable.js";
import type { CaseContext, CaseDefinition, ObservedMessage } from "../types.js";
import { anchor, expectDelivered, longParagraphs, mediaPayload, normalize, send } from "./helpers.js";

const hasEdits = (c: Capabilities): true | string => (c.edits != null ? true : "edits is not declared");

/** Rich enough that a wrong renderer or a lost edit shows: bold, inline code, a list. */
const FINAL =
  "Here is the **plan** for today:\n\n- read the `notes` file\n- write the summary\n- send it to the team\n\nDone by _noon_.";

/** A preview the case drives, and the number of messages the platform held before it started. */
async function startPreview(ctx: CaseContext, target: Target, replyToId?: string): Promise<LivePreview> {
  const preview = ctx.adapter.preview?.(target, replyToId === undefined ? {} : { replyToId });
  expect(preview, "adapter.preview (capabilities.edits is declared)").toBeDefined();
  return preview as LivePreview;
}

/** Prefixes of `text` cut at spaces, as a model writes it: `count` of them, growing. */
function prefixes(text: string, count: number): string[] {
  const cuts = [...text.matchAll(/ /g)].map((match) => match.index);
  return Array.from({ length: count }, (_, i) => text.slice(0, cuts[Math.floor((i * cuts.length) / count)]));
}

/** What a message shows, its edit history left out. */
const shown = ({ revisions: _history, ...message }: ObservedMessage): ObservedMessage => message;

/**
 * Settle `preview` with `payload`, then send the same payload plainly; expect the settled
 * messages to equal the plain ones (text, formatting, split, media, replies), the receipt
 * to be clean, and return the settled messages.
 */
async function expectSettledLikeSend(
  ctx: CaseContext,
  preview: LivePreview,
  before: number,
  payload: ReplyPayloadInput,
): Promise<{ settled: ObservedMessage[]; receipt: DeliveryReceipt; sent: number }> {
  const receipt = await preview.settle(payload);
  const settled = ctx.observe().slice(before);
  const plain = await send(ctx, payload);
  expectDelivered(plain);
  expect(settled.map(shown), "messages after settle vs a plain send of the same payload").toEqual(
    plain.observed.map(shown),
  );
  expectDelivered({ receipt, observed: settled });
  // A preview replaced because the first message is longer than the declared edit limit is expected.
  const degraded = receipt.degraded
    .filter((d) => !(d.from === "preview" && /edits\.maxLength/.test(d.reason) && declaresEditLimit(ctx)))
    .map((d) => `part ${d.part}: ${d.from} → ${d.to}: ${d.reason}`);
  if (degraded.length > 0)
    expect.fail(`settle degradations (an edit refused, or the preview not reused): ${degraded.join("; ")}`);
  return { settled, receipt, sent: plain.observed.length };
}

/** Whether the adapter declares an edit limit below its text limit (`edits.maxLength`). */
function declaresEditLimit(ctx: CaseContext): boolean {
  return ctx.capabilities.edits?.maxLength !== undefined;
}

/** Plain words of exactly `length` characters. */
function wordsOfLength(length: number): string {
  const text = "edit ".repeat(Math.ceil(length / 5)).slice(0, length);
  return text.endsWith(" ") ? `${text.slice(0, -1)}x` : text;
}

/** Each revision, and the final text, grows from the one before (whitespace aside). */
function expectGrowing(message: ObservedMessage | undefined): void {
  const revisions = message?.revisions ?? [];
  expect(revisions.length, "revisions of the preview message (edits it went through)").toBeGreaterThan(0);
  const texts = [...revisions, message?.text ?? ""].map(normalize);
  for (const [i, text] of texts.slice(0, -1).entries()) {
    const next = texts[i + 1] as string;
    expect(
      next.startsWith(text),
      `revision ${i} is a prefix of what followed: "${text}" then "${next}"`,
    ).toBe(true);
  }
}

/** The emulator's count of 429s under its own limits, or an unobservable case. */
function refusals(ctx: CaseContext, id: string): number {
  const count = ctx.rateLimitRefusals?.();
  if (count === undefined)
    unobservable(ctx, `${id} needs the harness's rateLimitRefusals() to see whether an edit was refused`);
  return count;
}

/** The live-preview cases, gated by `capabilities.edits`. */
export const editCases: CaseDefinition[] = [
  {
    id: "edits.progressive",
    checks:
      "A reply written over 2.5 edit intervals is shown in one message edited in place (revisions growing, each a prefix of the next), with no 429 under the platform's edit limits; settled, the channel shows exactly what a plain send of the reply shows.",
    gate: "edits",
    applies: hasEdits,
    exercises: ["edits"],
    async run(ctx) {
      const start = refusals(ctx, "edits.progressive");
      const interval = (ctx.capabilities.edits as { minIntervalMs: number }).minIntervalMs;
      const steps = 10;
      const pace = Math.min(interval * 2.5, 4000) / steps;
      const before = ctx.observe().length;
      const preview = await startPreview(ctx, ctx.target);
      for (const text of prefixes(FINAL, steps)) {
        preview.update(text);
        await ctx.clock.sleep(pace); // the model's writing pace, not synchronization
      }
      const { settled } = await expectSettledLikeSend(ctx, preview, before, { text: FINAL });
      expectGrowing(settled[0]);
      expect(
        refusals(ctx, "edits.progressive") - start,
        "429s the platform answered under its own limits (edits too fast)",
      ).toBe(0);
    },
  },
  {
    id: "edits.not-modified",
    checks:
      "Updates whose text renders the same as what the preview shows, and a settle to that same text, make no edit: the message has no revisions.",
    gate: "edits",
    applies: hasEdits,
    exercises: ["edits"],
    async run(ctx) {
      const interval = (ctx.capabilities.edits as { minIntervalMs: number }).minIntervalMs;
      const before = ctx.observe().length;
      const preview = await startPreview(ctx, ctx.target);
      for (const text of ["Nothing **new** here", "Nothing **new** here  ", "Nothing **new** here\n\n"]) {
        preview.update(text);
        await ctx.clock.sleep(interval + 50);
      }
      const { settled } = await expectSettledLikeSend(ctx, preview, before, { text: "Nothing **new** here" });
      expect(settled[0]?.revisions ?? [], "revisions of a message never changed").toEqual([]);
    },
  },
  {
    id: "edits.reply",
    checks:
      "A preview started with `replyToId` replies to that message from its first version; settled, it still does, like a plain send of the reply.",
    gate: "edits, replies",
    applies: (c) => (c.replies ? hasEdits(c) : "replies is false"),
    exercises: ["edits", "replies"],
    async run(ctx) {
      const inbound = await anchor(ctx, "inbound");
      const before = ctx.observe().length;
      const preview = await startPreview(ctx, ctx.target, inbound);
      preview.update("Let me **che");
      const { settled } = await expectSettledLikeSend(ctx, preview, before, {
        text: "Let me **check**: all good.",
        replyToId: inbound,
      });
      expect(settled[0]?.replyTo, "reply reference of the settled preview").toBe(inbound);
      expectGrowing(settled[0]);
    },
  },
  {
    id: "edits.split",
    checks:
      "A reply longer than the text limit settles into the chunks a plain send makes: the preview is the first chunk, the others follow as new messages.",
    gate: "edits",
    applies: hasEdits,
    exercises: ["edits"],
    async run(ctx) {
      const text = longParagraphs(ctx.capabilities).join("\n\n");
      const before = ctx.observe().length;
      const preview = await startPreview(ctx, ctx.target);
      preview.update(text.slice(0, 40));
      const { settled } = await expectSettledLikeSend(ctx, preview, before, { text });
      expect(settled.length, "chunks delivered").toBeGreaterThanOrEqual(2);
      expectGrowing(settled[0]);
      for (const later of settled.slice(1))
        expect(later.revisions ?? [], "revisions of a later chunk").toEqual([]);
    },
  },
  {
    id: "edits.media",
    checks:
      "A reply with media settles into what a plain send shows (the text as the caption): the preview does not stay behind as an extra message.",
    gate: "edits",
    applies: hasEdits,
    exercises: ["edits"],
    async run(ctx) {
      const payload = await mediaPayload("png", "file", "Here is the **chart**");
      const before = ctx.observe().length;
      const preview = await startPreview(ctx, ctx.target);
      preview.update("Here is the");
      await expectSettledLikeSend(ctx, preview, before, payload);
    },
  },
  {
    id: "edits.at-limit",
    checks:
      "A reply exactly at the text limit (in characters) settles from a live preview into what a plain send shows (one message showing all of it where the platform measures characters), no edit refused for its length: a platform whose edits carry less than a new message declares `edits.maxLength`, and the preview is then replaced (a degradation the case accepts).",
    gate: "edits",
    applies: hasEdits,
    exercises: ["edits"],
    async run(ctx) {
      const { maxLength, chunkLength = maxLength } = ctx.capabilities.text;
      const text = wordsOfLength(chunkLength);
      const before = ctx.observe().length;
      const preview = await startPreview(ctx, ctx.target);
      preview.update(text.slice(0, 40));
      const { settled, sent } = await expectSettledLikeSend(ctx, preview, before, { text });
      // A platform that measures more than the characters (Matrix weighs the whole event) splits
      // this text in a plain send too: the settled reply matches that send, chunk by chunk.
      expect(settled, "messages after settle (as many as a plain send makes)").toHaveLength(sent);
      if (sent === 1)
        expect(settled[0]?.text?.length, "length of the settled text (at the limit)").toBe(chunkLength);
    },
  },
];
