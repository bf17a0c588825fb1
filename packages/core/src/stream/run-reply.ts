/**
 * The reply target of an agent run: one choice for the whole run that every block, media
 * delivery, the live preview and the settled reply follow (docs/streaming.md, "Replies").
 */
import type { Capabilities, SendOptions } from "../adapter/types.js";
import { parseReply } from "../parse/parse-reply.js";
import type { ParseOptions, ReplyPayload, Target } from "../payload/types.js";
import type { PartDegradation } from "../plan/types.js";
import type { DeliverAgentRunOptions } from "./run-types.js";

/** One delivery's reply: the payload to send, its options, and a tag that could not be honoured. */
export interface RunReplyStep {
  /** The payload with the run's reply (`replyToId`: the id, or `null` for none). */
  payload: ReplyPayload;
  /** The send's `replyMode`. */
  replyMode: NonNullable<SendOptions["replyMode"]>;
  /** A reply tag in this delivery that the run could not follow (part 0 of the delivery). */
  note?: PartDegradation;
}

/** The reply bookkeeping of one run. */
export interface RunReply {
  /**
   * The reply of the next delivery; `settling` when it settles the run's live preview,
   * `streamed` the text written so far (read for a tag when the run has not decided yet).
   */
  step(payload: ReplyPayload, settling: boolean, streamed: string): RunReplyStep;
  /** A delivery of the run produced messages. */
  delivered(step: RunReplyStep): void;
  /** The message a live preview starting now replies to (`streamed`: the text so far). */
  previewReplyTo(streamed: string): string | undefined;
}

/**
 * Create the reply of one run. Without `replyToId`/`replyToCurrent` in the options the run
 * follows the reply tags: the first message that goes out decides for the whole run (a tag
 * anywhere in what was written by then counts); a tag that comes later cannot move what was
 * sent and is reported as a `reply` degradation. With `replyMode: "first"` the run's first
 * message carries the reply, with `all` every message; on a platform whose replies are
 * threads (`capabilities.replyThreads`) every message does, so the run stays in one thread.
 */
export function createRunReply(
  options: Pick<DeliverAgentRunOptions, "replyMode" | "replyToId" | "replyToCurrent">,
  target: Target,
  capabilities: Capabilities,
  parseOptions: ParseOptions,
): RunReply {
  const followsTags =
    options.replyMode !== "off" && options.replyToId === undefined && options.replyToCurrent !== true;
  const tagIn = (text: string): string | null => parseReply(text, parseOptions).replyToId ?? null;
  /** The run's reply target: an id, `null` for none, `undefined` while the tags may still decide. */
  let chosen: string | null | undefined =
    options.replyMode === "off"
      ? null
      : options.replyToId !== undefined
        ? options.replyToId
        : options.replyToCurrent === true
          ? (target.currentMessageId ?? null)
          : undefined;
  const every = options.replyMode === "all" || capabilities.replyThreads === true;
  const replyMode = every ? "all" : "first";
  /** No message of the run carries the reply yet. */
  let pending = true;
  let preview: string | undefined;
  let previewStarted = false;
  const wanted = (): string | null => (chosen != null && (every || pending) ? chosen : null);

  return {
    step(payload, settling, streamed) {
      const tagged = payload.replyToId ?? undefined;
      let note: PartDegradation | undefined;
      if (chosen === undefined) chosen = tagged ?? tagIn(streamed);
      else if (followsTags && tagged !== undefined && tagged !== chosen)
        note = {
          part: 0,
          from: "reply",
          to: chosen === null ? "none" : `reply to ${chosen}`,
          reason: `the reply tag naming message ${tagged} came after the run's first message went out ${chosen === null ? "without a reply" : `replying to ${chosen}`}; a run keeps one reply target`,
        };
      const replyToId = settling && previewStarted && preview !== undefined ? preview : wanted();
      return { payload: { ...payload, replyToId }, replyMode, ...(note ? { note } : {}) };
    },
    delivered(step) {
      if (step.payload.replyToId != null) pending = false;
    },
    previewReplyTo(streamed) {
      // Undecided: the tags written so far; the settled reply replaces the preview if a later tag differs.
      const reply = chosen === undefined ? tagIn(streamed) : wanted();
      preview = reply ?? undefined;
      previewStarted = true;
      if (preview !== undefined) pending = false;
      return preview;
    },
  };
}
