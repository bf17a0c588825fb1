/**
 * The reply target of an agent run: one choice for the whole run that every block, media
 * delivery, the live preview and the settled reply follow (docs/streaming.md, "Replies").
 */
import type { Capabilities, ReceiptMessage, SendOptions } from "../adapter/types.js";
import { NO_CURRENT } from "../engine/run-plan.js";
import { excerpt } from "../errors/failure-entry.js";
import type { ReplyPayload, Target } from "../payload/types.js";
import type { PartDegradation } from "../plan/types.js";
import type { DeliverAgentRunOptions } from "./run-types.js";
import type { WrittenTags } from "./written-tags.js";

/** One delivery's reply: the payload to send, its options, and a tag that could not be honoured. */
export interface RunReplyStep {
  /** The payload with the run's reply (`replyToId`: the id, or `null` for none). */
  payload: ReplyPayload;
  /** The send's `replyMode`. */
  replyMode: NonNullable<SendOptions["replyMode"]>;
  /** Reply tags naming another message than the run's, read since the last delivery (part 0 of this one). */
  notes: PartDegradation[];
}

/** The reply bookkeeping of one run. */
export interface RunReply {
  /**
   * The run read these tags (of the text written so far, or of a delivery's payload before
   * what was already sent is left out): its reply tag counts from now on.
   */
  read(tags: WrittenTags): void;
  /** The reply of the next delivery; `settling` when it settles the run's live preview. */
  step(payload: ReplyPayload, settling: boolean): RunReplyStep;
  /** Messages of the run went out (`replyToId`: what they reply to; `null` for nothing). */
  delivered(replyToId: string | null | undefined, messages: readonly ReceiptMessage[]): void;
  /** The message a live preview starting now replies to. */
  previewReplyTo(): string | undefined;
  /**
   * The live preview stays on screen as it is (cancelled, not settled): its messages went
   * out when it started, with the reply {@link RunReply.previewReplyTo} gave it.
   */
  previewLeft(messages: readonly ReceiptMessage[]): void;
  /**
   * The run ended: a tag naming another message, or a `[[reply_to_current]]` with no current
   * message, that no later delivery carried is reported.
   */
  finish(): void;
}

/**
 * Create the reply of one run. Without `replyToId`/`replyToCurrent` in the options the run
 * follows the reply tags: the first tag the run reads decides for the whole run (before
 * each delivery every tag written so far counts). A message sent before that cannot be
 * made a reply afterwards: each is reported to `degrade` as a `reply` degradation (its
 * `part` in the run), and the messages sent after the tag carry the reply. With
 * `replyMode: "first"` the first message sent with the reply known carries it, with `all`
 * every one; on a platform whose replies are threads (`capabilities.replyThreads`) every
 * one does, so everything after the tag is in the thread. A `[[reply_to_current]]` read while
 * the target names no current message (and no tag chose a reply yet) is reported once, as a
 * send reports it, on the next delivery.
 */
export function createRunReply(
  options: Pick<DeliverAgentRunOptions, "replyMode" | "replyToId" | "replyToCurrent">,
  target: Target,
  capabilities: Capabilities,
  degrade: (entries: PartDegradation[]) => void,
): RunReply {
  const followsTags =
    options.replyMode !== "off" && options.replyToId === undefined && options.replyToCurrent !== true;
  /** The run's reply target: an id, `null` for none; `undefined` while no tag was read. */
  let chosen: string | null | undefined =
    options.replyMode === "off"
      ? null
      : options.replyToId !== undefined
        ? options.replyToId
        : options.replyToCurrent === true
          ? (target.currentMessageId ?? null)
          : undefined;
  const threads = capabilities.replyThreads === true;
  const every = options.replyMode === "all" || threads;
  const replyMode = every ? "all" : "first";
  /** Some message of the run carries the reply. */
  let carried = false;
  /** Messages sent without a reply before the run read its tag. */
  let early: ReceiptMessage[] = [];
  let lastPart: number | undefined;
  /** Tags naming another message than `chosen`: each is reported once, on the next delivery. */
  const conflicts = new Set<string>();
  let unreported: string[] = [];
  /** `[[reply_to_current]]` was read with no current message to name: noted once, like a conflict. */
  let noCurrent: "unread" | "unreported" | "reported" = "unread";
  /** The notes of the next delivery (or of the run's last part): the conflicts and a missing current message. */
  const pendingNotes = (part: number): PartDegradation[] => {
    const notes = unreported.map((tagged) => conflictNote(tagged, part));
    unreported = [];
    if (noCurrent === "unreported") {
      notes.push({ part, ...NO_CURRENT });
      noCurrent = "reported";
    }
    return notes;
  };
  let preview: string | undefined;
  /** The live preview started while the run followed tags and had read none. */
  let previewBeforeTag = false;
  const wanted = (): string | null => (chosen != null && (every || !carried) ? chosen : null);
  const late = (messages: readonly ReceiptMessage[], id: string): void => {
    if (messages.length === 0) return;
    degrade(
      messages.map((message) => ({
        part: message.part,
        from: "reply",
        to: "none",
        reason: `message ${message.id} went out before the agent wrote its reply tag (reply to ${excerpt(id)}); a sent message cannot become a reply${threads ? " or move into the reply's thread" : ""}, so only the run's messages sent after the tag carry the reply`,
      })),
    );
  };
  const choose = (id: string): void => {
    chosen = id;
    late(early, id);
    early = [];
  };
  const conflictNote = (tagged: string, part: number): PartDegradation => ({
    part,
    from: "reply",
    to: `reply to ${chosen}`,
    reason: `the reply tag naming message ${excerpt(tagged)} came after the run chose to reply to ${chosen}; a run keeps one reply target`,
  });

  return {
    read(tags) {
      const tagged = tags.replyToId ?? undefined;
      if (!followsTags) return;
      // As a send says it (the engine's NO_CURRENT): the reply the agent asked for names nothing.
      if (
        tags.replyToCurrent === true &&
        tagged === undefined &&
        chosen === undefined &&
        noCurrent === "unread"
      )
        noCurrent = "unreported";
      if (tagged === undefined) return;
      if (chosen === undefined) choose(tagged);
      else if (tagged !== chosen && !conflicts.has(tagged)) {
        conflicts.add(tagged);
        unreported.push(tagged);
      }
    },
    step(payload, settling) {
      const notes = pendingNotes(0);
      const replyToId = settling && preview !== undefined ? preview : wanted();
      return { payload: { ...payload, replyToId }, replyMode, notes };
    },
    delivered(replyToId, messages) {
      const last = messages.at(-1);
      if (last === undefined) return;
      lastPart = last.part;
      if (replyToId != null) carried = true;
      else if (followsTags && chosen === undefined) early.push(...messages);
    },
    previewReplyTo() {
      // With no tag yet, the settled reply replaces the preview if a later tag asks for a reply.
      preview = wanted() ?? undefined;
      if (preview !== undefined) carried = true;
      previewBeforeTag = followsTags && chosen === undefined;
      return preview;
    },
    previewLeft(messages) {
      // Only a settle can replace the preview; left on screen, it stays what it was when it started.
      if (!previewBeforeTag) return;
      if (chosen == null) early.push(...messages);
      else late(messages, chosen);
    },
    finish() {
      if (lastPart !== undefined) degrade(pendingNotes(lastPart));
    },
  };
}
