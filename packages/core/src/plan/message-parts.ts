import type { RenderedText } from "../adapter/types.js";
import type { AlbumPart, MediaPart, PartDegradation, PartOrigin, PlanPart } from "./types.js";

/**
 * A part delivered by editing a text message already sent (a live preview becoming the
 * reply's first message, or one update of the preview). Its receipt entry lists that
 * message; like a send it is paced, retried and reported, and resending it is harmless.
 */
export interface EditPart extends PartOrigin {
  /** Discriminator. */
  type: "edit";
  /** Platform id of the message to edit. */
  messageId: string;
  /**
   * The text the message shows once edited, rendered and within the limit; with
   * {@link latest}, the text it shows now (reported should the edit fail before it is asked).
   */
  text: RenderedText;
  /**
   * For an edit whose text keeps changing while it waits (a live preview's update): asked
   * for the text right before the edit goes out, after its spacing; `undefined` when the
   * message already shows the latest text, and then no call is made.
   */
  latest?: () => RenderedText | undefined;
  /**
   * Least time since the message last changed (or, with {@link latest}, was last looked at)
   * before this edit goes, when longer than the platform's `edits.minIntervalMs`.
   */
  intervalMs?: number;
  /**
   * The message already shows `text` (kept as it was, or edited by an earlier plan): the part
   * is recorded as delivered with no call.
   */
  applied?: boolean;
  /**
   * The media of this part when the edit took its caption's text: sent after the edit,
   * without a caption and without a reply (the edited message carries the reply).
   */
  media?: MediaPart | AlbumPart;
}

/** A part that deletes a message already sent (a live preview the reply does not reuse). */
export interface DeletePart extends PartOrigin {
  /** Discriminator. */
  type: "delete";
  /** Platform id of the message to delete. */
  messageId: string;
}

/** Any part the engine executes: one of a reply's plan, or a call on a message already sent. */
export type ExecutablePart = PlanPart | EditPart | DeletePart;

/** A plan the engine executes: a reply's plan, possibly with parts that edit or delete. */
export interface ExecutionPlan {
  /** Parts in delivery order; a part's index is its `part` in the receipt. */
  parts: ExecutablePart[];
  /** Degradations decided by the plan, by part. */
  degraded: PartDegradation[];
}
