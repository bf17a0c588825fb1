import { describe, expect, it } from "vitest";
import type { RenderedText } from "../../src/adapter/types.js";
import type { LoadedMedia } from "../../src/media/types.js";
import type { DeliveryPlan, PlanPart } from "../../src/plan/types.js";
import { type SeenPreview, type SettleStep, settledPlan, settlePlan } from "../../src/preview/settle-plan.js";

const rendered = (text: string): RenderedText => ({ text, plain: text });
const text = (body: string): PlanPart => ({
  type: "text",
  tree: { type: "root", children: [] },
  text: rendered(body),
  sources: [],
});
const media = (caption?: string): PlanPart => ({
  type: "media",
  kind: "image",
  media: {} as LoadedMedia,
  sources: [0],
  ...(caption === undefined ? {} : { caption: rendered(caption) }),
});
const album = (caption?: string): PlanPart => ({
  type: "album",
  items: [],
  sources: [0, 1],
  ...(caption === undefined ? {} : { caption: rendered(caption) }),
});
const plan = (...parts: PlanPart[]): DeliveryPlan => ({
  parts,
  degraded: [{ part: 1, from: "image", to: "document", reason: "too large for a photo" }],
});
const planned = { part: 0, from: "reply", to: "none", reason: "the platform has no replies" };

interface Case {
  name: string;
  plan: DeliveryPlan;
  seen?: Partial<SeenPreview>;
  replyTo?: string;
  maxLength?: number;
  step: Partial<SettleStep> & { type: SettleStep["type"] };
}

const cases: Case[] = [
  {
    name: "edit into the preview: part 0 is a text the preview does not show yet",
    plan: plan(text("Hello world."), media()),
    step: { type: "edit", into: "text", text: rendered("Hello world."), degraded: [] },
  },
  {
    name: "edit into the preview: part 0's planned degradations move with it, not the others'",
    plan: { parts: [text("Hi"), text("there")], degraded: [planned, { ...planned, part: 1 }] },
    step: { type: "edit", into: "text", degraded: [planned] },
  },
  {
    name: "keep: the preview already shows part 0",
    plan: plan(text("Done.")),
    seen: { shown: "Done." },
    step: { type: "keep", into: "text", text: rendered("Done.") },
  },
  {
    name: "keep: a reply to the message the preview replies to",
    plan: plan(text("Done.")),
    seen: { shown: "Done.", replyTo: "in-1" },
    replyTo: "in-1",
    step: { type: "keep", into: "text" },
  },
  {
    name: "delete and send: part 0 is longer than an edit may carry",
    plan: plan(text("x".repeat(11))),
    maxLength: 10,
    step: {
      type: "delete",
      replaced: {
        preview: "deleted",
        reason:
          "the first message (11) is longer than an edit may carry (edits.maxLength 10): the first message went as a new one and the preview was deleted",
      },
    },
  },
  {
    name: "delete and send: part 0 at the edit limit is still an edit",
    plan: plan(text("x".repeat(10))),
    maxLength: 10,
    step: { type: "edit", into: "text" },
  },
  {
    name: "delete and send: editing into part 0 failed",
    plan: plan(text("Final")),
    seen: { editFailed: "PLATFORM_ERROR: message to edit not found" },
    step: {
      type: "delete",
      degraded: [
        {
          part: 0,
          from: "preview",
          to: "deleted",
          reason:
            "editing the live preview into the reply failed (PLATFORM_ERROR: message to edit not found): the first message went as a new one and the preview was deleted",
        },
      ],
    },
  },
  {
    name: "keep the preview as it is: editing failed and it cannot be deleted",
    plan: plan(text("Final")),
    seen: { editFailed: "boom", undeletable: true },
    step: {
      type: "leave",
      replaced: {
        preview: "left",
        reason:
          "editing the live preview into the reply failed (boom): the first message went as a new one; the preview keeps its last text",
      },
    },
  },
  {
    name: "delete and send: the reply opens with media",
    plan: plan(media("Here is the chart")),
    step: {
      type: "delete",
      replaced: {
        preview: "deleted",
        reason: "the reply opens with media: the live preview was deleted and the reply went as new messages",
      },
      degraded: [],
    },
  },
  {
    name: "delete and send: the reply is empty",
    plan: { parts: [], degraded: [] },
    step: { type: "delete", degraded: [] },
  },
  {
    name: "edit into a caption: media first and the preview cannot be deleted",
    plan: plan(media("Here is the chart")),
    seen: { undeletable: true },
    step: {
      type: "edit",
      into: "caption",
      text: rendered("Here is the chart"),
      degraded: [
        {
          part: 0,
          from: "caption",
          to: "text",
          reason:
            "the live preview could not be deleted: it became the reply's text and the first media message went without caption",
        },
      ],
    },
  },
  {
    name: "edit into a caption: an album's",
    plan: plan(album("Two charts")),
    seen: { undeletable: true },
    step: { type: "edit", into: "caption", text: rendered("Two charts") },
  },
  {
    name: "keep as the caption: the preview already shows it",
    plan: plan(album("Two charts")),
    seen: { undeletable: true, shown: "Two charts" },
    step: { type: "keep", into: "caption" },
  },
  {
    name: "left: media without caption and the preview cannot be deleted",
    plan: plan(media()),
    seen: { undeletable: true },
    step: {
      type: "leave",
      replaced: {
        preview: "left",
        reason:
          "the reply opens with no text for the live preview to become and the preview could not be deleted: it keeps its last text",
      },
    },
  },
  {
    name: "left: the edit into the caption failed",
    plan: plan(media("Here is the chart")),
    seen: { undeletable: true, editFailed: "boom" },
    step: { type: "leave" },
  },
  {
    name: "replace with a reply: the reply tag came after the preview started",
    plan: plan(text("Done.")),
    seen: { shown: "Done." },
    replyTo: "in-2",
    step: {
      type: "delete",
      replaced: {
        preview: "deleted",
        reason:
          "the reply replies to message in-2 and the live preview does not (the reply tag came after the preview started): the reply went as new messages and the preview was deleted",
      },
      degraded: [],
    },
  },
  {
    name: "replace with a reply: the preview replies to another message",
    plan: plan(text("Done.")),
    seen: { replyTo: "in-1" },
    replyTo: "in-2",
    step: { type: "delete", degraded: [] },
  },
  {
    name: "replace with a reply, the preview left: it cannot be deleted",
    plan: plan(text("Done.")),
    seen: { undeletable: true },
    replyTo: "in-2",
    step: {
      type: "leave",
      degraded: [
        {
          part: 0,
          from: "preview",
          to: "left",
          reason:
            "the reply replies to message in-2 and the live preview does not (the reply tag came after the preview started): the reply went as new messages; the preview keeps its last text",
        },
      ],
    },
  },
];

const stepOf = (c: Case): SettleStep =>
  settlePlan(
    c.plan,
    { shown: "Hel", replyTo: undefined, undeletable: false, ...c.seen },
    { replyTo: c.replyTo, maxLength: c.maxLength, measure: (value) => value.length },
  );

describe("settlePlan", () => {
  it.each(cases)("$name", (c) => {
    expect(stepOf(c)).toMatchObject(c.step);
  });

  it("leaves its inputs as they were", () => {
    const input = plan(text("Hello"), media("caption"));
    const before = structuredClone(input);
    settlePlan(
      input,
      { shown: undefined, replyTo: undefined, undeletable: true },
      {
        replyTo: undefined,
        maxLength: undefined,
        measure: (value) => value.length,
      },
    );
    expect(input).toEqual(before);
  });
});

describe("settledPlan: the plan executed as the reply", () => {
  const edited = [{ part: 0, from: "markup", to: "plain", reason: "the edit went as plain text" }];
  it.each(cases)("$name", (c) => {
    const step = stepOf(c);
    const { plan: settled, prior } = settledPlan(c.plan, step, "p1", edited);
    if (step.type === "delete" || step.type === "leave") {
      // The whole reply goes as send would send it; what became of the preview is reported first.
      expect(settled).toBe(c.plan);
      expect(prior).toEqual(step.degraded);
      return;
    }
    const [first, ...rest] = c.plan.parts;
    expect(settled.parts.slice(1)).toEqual(rest);
    expect(settled.degraded).toEqual(c.plan.degraded);
    // Part 0 is the preview message, already showing its text: no further call for it.
    expect(settled.parts[0]).toMatchObject({ type: "edit", messageId: "p1", text: step.text, applied: true });
    if (step.into === "caption") {
      // The media goes after it, without the caption the preview now shows.
      expect(settled.parts[0]).toMatchObject({ media: first });
      expect(prior).toEqual([...step.degraded, ...edited]);
    } else {
      expect(settled.parts[0]).not.toHaveProperty("media");
      expect(prior).toEqual(edited);
    }
  });
});
