import type { RenderedText } from "../adapter/types.js";
import type { ExecutablePart, ExecutionPlan } from "../plan/message-parts.js";
import type { DeliveryPlan, PartDegradation } from "../plan/types.js";

/** What the person sees of a live preview when it settles, and what was already tried on it. */
export interface SeenPreview {
  /** Rendered text the message shows. */
  shown: string | undefined;
  /** The message the preview replies to, if any. */
  replyTo: string | undefined;
  /** It cannot be deleted: the platform has no delete, or a delete of it failed. */
  undeletable: boolean;
  /** Why editing it into the reply failed, once such an edit was tried and failed. */
  editFailed?: string;
}

/** What the settle rule needs to know of the reply and the platform. */
export interface SettleRules {
  /** The message the reply's first operation replies to, if any. */
  replyTo: string | undefined;
  /** `capabilities.edits.maxLength`: the longest text an edit may carry. */
  maxLength: number | undefined;
  /** The renderer's `measure`, in the unit of `maxLength`. */
  measure(text: string): number;
}

/**
 * What settling does with the preview message before the rest of the plan runs:
 * - `keep`/`edit` `into: "text"`: the message becomes part 0 (edited into its text, or kept
 *   as it already shows it); the plan runs from part 1.
 * - `keep`/`edit` `into: "caption"`: the message becomes part 0's caption text; the media
 *   goes without one.
 * - `delete`: the message is deleted and the whole plan runs as `send` would run it.
 * - `leave`: the message keeps its last text and the whole plan runs.
 * `degraded` are the receipt entries the step adds when it succeeds; `replaced` (on
 * `delete` and `leave`) is what {@link LivePreview.replaced} reports.
 */
export type SettleStep =
  | {
      /** Discriminator: no call, the message already shows `text`. */
      type: "keep";
      /** What of part 0 the message becomes. */
      into: "text" | "caption";
      /** The text the message shows as part of the reply. */
      text: RenderedText;
      /** Entries for part 0 (the plan's, or the caption's move). */
      degraded: PartDegradation[];
    }
  | {
      /** Discriminator: one edit of the message to `text`. */
      type: "edit";
      /** What of part 0 the message becomes. */
      into: "text" | "caption";
      /** The text to edit the message into. */
      text: RenderedText;
      /** Entries for part 0 (the plan's, or the caption's move). */
      degraded: PartDegradation[];
    }
  | (Replacement & {
      /** Discriminator: one delete of the message. */
      type: "delete";
    })
  | (Replacement & {
      /** Discriminator: no call, the message keeps its last text. */
      type: "leave";
    });

/** What a step that does not reuse the preview says of it. */
export interface Replacement {
  /** What became of the preview, and why. */
  replaced: { preview: "deleted" | "left"; reason: string };
  /** Entries for part 0. */
  degraded: PartDegradation[];
}

/**
 * The settle rule (docs/live-preview.md, "Settle"): from the final reply's plan and what the
 * person sees, the step to take on the preview message. Pure: when the step's call fails
 * the caller marks that in `seen` (`editFailed`, `undeletable`) and asks again.
 * - The reply replies to a message the preview does not: a message cannot change what it
 *   replies to, so the preview is deleted (or left) and the reply goes as new messages.
 * - Part 0 a text longer than `maxLength`, or editing into it failed: the preview is deleted
 *   (or left) and part 0 goes as a new message, reported as a degradation.
 * - Part 0 a text: the preview is edited into it (kept when it already shows that text).
 * - Otherwise (media first): the preview is deleted so the channel shows what `send` would
 *   show; when it cannot be, it is edited into part 0's caption; with no caption, left.
 */
export function settlePlan(plan: DeliveryPlan, seen: SeenPreview, rules: SettleRules): SettleStep {
  const { replyTo } = rules;
  if (replyTo !== undefined && replyTo !== seen.replyTo) {
    const why = `the reply replies to message ${replyTo} and the live preview does not (the reply tag came after the preview started): the reply went as new messages`;
    return seen.undeletable
      ? left(`${why}; the preview keeps its last text`)
      : deleted(`${why} and the preview was deleted`, false);
  }
  const first = plan.parts[0];
  const length = first?.type === "text" && rules.maxLength !== undefined ? rules.measure(first.text.text) : 0;
  const why =
    seen.editFailed !== undefined
      ? `editing the live preview into the reply failed (${seen.editFailed})`
      : rules.maxLength !== undefined && length > rules.maxLength
        ? `the first message (${length}) is longer than an edit may carry (edits.maxLength ${rules.maxLength})`
        : undefined;
  if (first?.type === "text" && why !== undefined)
    return seen.undeletable
      ? left(`${why}: the first message went as a new one; the preview keeps its last text`)
      : deleted(`${why}: the first message went as a new one and the preview was deleted`, true);
  if (first?.type === "text")
    return reuse(
      "text",
      first.text,
      seen,
      plan.degraded.filter((entry) => entry.part === 0),
    );
  if (!seen.undeletable)
    return deleted(
      "the reply opens with media: the live preview was deleted and the reply went as new messages",
      false,
    );
  const caption = first?.type === "media" || first?.type === "album" ? first.caption : undefined;
  if (caption !== undefined && seen.editFailed === undefined)
    return reuse("caption", caption, seen, [
      {
        part: 0,
        from: "caption",
        to: "text",
        reason:
          "the live preview could not be deleted: it became the reply's text and the first media message went without caption",
      },
    ]);
  return left(
    "the reply opens with no text for the live preview to become and the preview could not be deleted: it keeps its last text",
  );
}

/**
 * The plan executed as the reply once the preview took `step`: the reply's own plan when the
 * preview was deleted or left; otherwise part 0 as the preview message, an applied edit part
 * (no further call) in place of part 0's text, or carrying part 0's media, to go without
 * caption, when the preview became its caption. `prior` are the degradations to report before
 * any part runs: the step's, and `edited` (what the edit itself was degraded to); into the
 * text, the step's entries are the plan's own for part 0, reported with the part. Pure.
 */
export function settledPlan(
  plan: DeliveryPlan,
  step: SettleStep,
  messageId: string,
  edited: PartDegradation[] = [],
): { plan: ExecutionPlan; prior: PartDegradation[] } {
  if (step.type === "delete" || step.type === "leave") return { plan, prior: step.degraded };
  const [first, ...rest] = plan.parts;
  const media = first?.type === "media" || first?.type === "album" ? first : undefined;
  const part: ExecutablePart = {
    type: "edit",
    messageId,
    text: step.text,
    applied: true,
    sources: first?.sources ?? [],
    ...(step.into === "caption" && media !== undefined ? { media } : {}),
  };
  const prior = step.into === "text" ? edited : [...step.degraded, ...edited];
  return { plan: { parts: [part, ...rest], degraded: plan.degraded }, prior };
}

function reuse(
  into: "text" | "caption",
  text: RenderedText,
  seen: SeenPreview,
  degraded: PartDegradation[],
): SettleStep {
  return { type: text.text === seen.shown ? "keep" : "edit", into, text, degraded };
}

function deleted(reason: string, noted: boolean): SettleStep {
  return {
    type: "delete",
    replaced: { preview: "deleted", reason },
    degraded: noted ? [{ part: 0, from: "preview", to: "deleted", reason }] : [],
  };
}

function left(reason: string): SettleStep {
  return {
    type: "leave",
    replaced: { preview: "left", reason },
    degraded: [{ part: 0, from: "preview", to: "left", reason }],
  };
}
