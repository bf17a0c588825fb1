/**
 * The deliveries of an agent run: each through `adapter.send` (or, for the final reply of a
 * previewed run, the preview's `settle`), with a key derived from the run's, recorded in
 * the turn, the ledger and the progress feed.
 */
import type { CancelledPreview, ChannelAdapter, LivePreview, SendOptions } from "../adapter/types.js";
import { createMediaMemory } from "../engine/media-memory.js";
import { OutboxError, TransportError } from "../errors/errors.js";
import { excerpt, failureEntry, notAttempted, unreachable } from "../errors/failure-entry.js";
import type { DeliveryTurn } from "../parse/delivery-turn.js";
import type { ReplyPayload, Target } from "../payload/types.js";
import type { RunLedger } from "./run-ledger.js";
import type { RunReply, RunReplyStep } from "./run-reply.js";
import type { AgentRunProgress, RunStepKind } from "./run-types.js";
import type { RunVoice } from "./run-voice.js";
import type { WrittenTags } from "./written-tags.js";

/** What the sender works with. */
export interface RunSenderContext {
  /** The channel. */
  adapter: ChannelAdapter;
  /** Where to. */
  target: Target;
  /** The turn's once-only memory. */
  turn: DeliveryTurn;
  /** The combined receipt. */
  ledger: RunLedger;
  /** The progress feed. */
  progress: (item: AgentRunProgress) => void;
  /** The run's abort signal. */
  signal: AbortSignal | undefined;
  /** The run's idempotency key. */
  runKey: string | undefined;
  /** The run's reply target. */
  reply: RunReply;
  /** The run's voice wish. */
  voice: RunVoice;
  /** The tags of the text the agent wrote that no delivery has read yet. */
  unread: () => WrittenTags;
}

/** Sends a run's deliveries. */
export interface RunSender {
  /**
   * Deliver the payload `make` returns (`null`: nothing to send; a started preview is then
   * cancelled at the final step). Failures go to the receipt; after an abort nothing is sent
   * or recorded.
   */
  deliver(step: RunStepKind, make: () => ReplyPayload | null): Promise<void>;
  /**
   * The run read these tags (a delivery's payload, before what was already sent is left
   * out): they count from now on, even when nothing of the payload is left to send.
   */
  read<T extends WrittenTags>(tags: T): T;
  /** The run reads the tags of the text written so far (before each delivery, and when it ends). */
  readWritten(): void;
  /** The live preview, once started; the final step settles it. */
  preview: LivePreview | undefined;
  /** Set when the settle did not turn the preview into the reply (see {@link LivePreview.replaced}). */
  replaced: LivePreview["replaced"];
  /**
   * Cancel the live preview (once; later calls give the same answer). The message it leaves
   * on screen is delivered text: it goes into the receipt (and the progress feed) as a
   * `final` delivery. `undefined` without a preview or when cancelling failed.
   */
  cancelPreview(): Promise<CancelledPreview | undefined>;
}

/** Create the sender of one run. */
export function createRunSender(context: RunSenderContext): RunSender {
  const { adapter, target, turn, ledger, progress, signal, runKey, reply, voice } = context;
  const counts: Record<RunStepKind, number> = { block: 0, media: 0, final: 0 };
  /** The failure that showed the platform unreachable; later deliveries are not attempted. */
  let down: OutboxError | undefined;
  // One memory across the run: a file sent in a block is not sent again in another form.
  const mediaMemory = createMediaMemory();
  const optionsFor = (step: RunStepKind): SendOptions => {
    const key =
      runKey === undefined ? undefined : `${runKey}:${step}${step === "final" ? "" : `:${counts[step]}`}`;
    counts[step] += 1;
    return {
      ...(key === undefined ? {} : { idempotencyKey: key }),
      ...(signal ? { signal } : {}),
      mediaMemory,
    };
  };
  let cancelled: Promise<CancelledPreview | undefined> | undefined;
  const cancel = async (preview: LivePreview): Promise<CancelledPreview | undefined> => {
    const left = await preview.cancel().catch(() => undefined);
    if (left?.message === undefined) return left;
    const receipt = { ok: true, messages: [left.message], failures: [], degraded: [] };
    reply.previewLeft(ledger.add(receipt));
    progress({ type: "delivered", step: "final", receipt });
    return left;
  };
  const sender: RunSender = {
    preview: undefined,
    replaced: undefined,
    read(written) {
      reply.read(written);
      voice.read(written);
      return written;
    },
    readWritten() {
      sender.read(context.unread());
    },
    cancelPreview() {
      if (sender.preview === undefined) return Promise.resolve(undefined);
      cancelled ??= cancel(sender.preview);
      return cancelled;
    },
    async deliver(step, make) {
      if (signal?.aborted) return;
      const settling = step === "final" ? sender.preview : undefined;
      let receipt: Awaited<ReturnType<ChannelAdapter["send"]>>;
      let payload: ReplyPayload | null = null;
      let replied: RunReplyStep | undefined;
      try {
        payload = make();
        if (payload === null) {
          if (settling) await sender.cancelPreview();
          return;
        }
        if (down !== undefined) {
          // The platform proved unreachable: the rest of the run fails at once (fail fast).
          if (settling) await sender.cancelPreview();
          throw notAttempted(down);
        }
        sender.readWritten();
        replied = reply.step(voice.step(payload), settling !== undefined);
        const options = { ...optionsFor(step), replyMode: replied.replyMode };
        receipt = settling
          ? await settling.settle(replied.payload, options)
          : await adapter.send(replied.payload, target, options);
        if (receipt.ok || receipt.messages.length > 0) turn.recordSent(payload);
        if (replied.notes.length > 0)
          receipt = { ...receipt, degraded: [...receipt.degraded, ...replied.notes] };
        if (settling?.replaced) {
          sender.replaced = settling.replaced;
          progress({ type: "preview-replaced", ...settling.replaced });
        }
      } catch (error) {
        if (signal?.aborted) return;
        const failed = asOutboxError(error);
        receipt = {
          ok: false,
          messages: [],
          failures: [failureEntry(0, failed, describePayload(payload))],
          degraded: [],
        };
      }
      down ??= receipt.failures.find((entry) => unreachable(entry.error))?.error;
      const messages = ledger.add(receipt);
      reply.delivered(replied?.payload.replyToId, messages);
      voice.delivered(messages);
      progress({ type: "delivered", step, receipt });
    },
  };
  return sender;
}

/** What a run's delivery held, for its failure entry. */
function describePayload(payload: ReplyPayload | null): string | undefined {
  if (payload === null) return undefined;
  const media = payload.mediaUrls.length + payload.media.length;
  const text = payload.text.trim() === "" ? [] : [`text "${excerpt(payload.text)}"`];
  return [...text, ...(media > 0 ? [`${media} media item${media === 1 ? "" : "s"}`] : [])].join(" and ");
}

function asOutboxError(error: unknown): OutboxError {
  if (error instanceof OutboxError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError(`delivery failed: ${message}`, { ambiguous: true, cause: error });
}
