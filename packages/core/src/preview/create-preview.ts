import type {
  CancelledPreview,
  DeliveryReceipt,
  EditCapabilities,
  LivePreview,
  PreviewOptions,
  RenderedText,
} from "../adapter/types.js";
import type { DeliveryEngine } from "../engine/delivery-engine.js";
import { PayloadError } from "../errors/errors.js";
import type { Target } from "../payload/types.js";
import type { ExecutablePart } from "../plan/message-parts.js";
import { createPreviewText } from "./preview-text.js";
import { onePart, settlePreview } from "./settle-preview.js";

/**
 * Start a live preview on `target` (already checked). The first update that shows
 * anything sends a text message (paced, retried, replying to `replyToId`, in the target's
 * thread); later ones edit it, at most once per `max(edits.minIntervalMs, intervalMs)` (the
 * pacer spaces the edits of the message), only with the latest text, never with the text
 * already shown. A failed send or edit
 * stops the updates (the message keeps its text) and never the final reply: `settle`
 * still delivers everything. Built on the delivery engine alone: each send or edit is a
 * one-part plan the engine runs (paced and retried like a send), and settle a plan the engine
 * executes as a send. See docs/live-preview.md.
 */
export function createPreview(
  engine: DeliveryEngine,
  edits: EditCapabilities,
  target: Target,
  options: PreviewOptions,
): LivePreview {
  const { capabilities, renderer } = engine;
  checkOptions(options);
  const interval = Math.max(edits.minIntervalMs, options.intervalMs ?? 0);
  const replyTo = capabilities.replies ? options.replyToId : undefined;
  const message: PreviewMessage = { id: undefined, shown: undefined, replyTo, reused: false };
  const previewText = createPreviewText(capabilities, renderer);
  /** Aborted by the caller's signal (stops in-flight calls too) or once cancel() is done. */
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([stop.signal, options.signal]);
  /** Aborted by settle() and cancel(): ends the wait for the next edit, lets the call in flight finish. */
  const wake = new AbortController();
  let state: "live" | "settling" | "cancelled" = "live";
  let broken = false;
  /** The Markdown behind the text the message shows, and whether it shows only its head. */
  let shownMarkdown = "";
  let truncated = false;
  /** The text of the latest update, asked for when its edit goes out. */
  let pending: (() => string) | undefined;
  /** The update loop; `running` turns false synchronously as it ends, so an update never waits for a loop that is over. */
  let loop: Promise<void> = Promise.resolve();
  let running = false;
  const runOptions = replyTo === undefined ? { signal } : { signal, replyTo };
  const editOptions = { signal, stopWaiting: AbortSignal.any([wake.signal, signal]) };

  /**
   * The latest update's text, when it differs from what the message shows (`undefined`
   * otherwise); noted as the text on its way. Asked once per call, when it is about to go.
   */
  let onItsWay: { markdown: string; text: RenderedText } | undefined;
  const latest = (): RenderedText | undefined => {
    onItsWay = undefined;
    const source = pending;
    pending = undefined;
    if (source === undefined || state !== "live") return undefined;
    const markdown = source();
    if (typeof markdown !== "string") return undefined;
    const text = previewText(markdown);
    if (text === undefined || text.text === message.shown) return undefined;
    onItsWay = { markdown, text };
    return text;
  };

  /**
   * Send the message with the latest text, or edit it into the latest text: one one-part plan
   * the engine runs, the edit spaced by the pacer (at least the interval after the message
   * last changed or was last looked at). Throws the failure's (redacted) error.
   */
  const show = async (): Promise<void> => {
    const id = message.id;
    let receipt: DeliveryReceipt;
    if (id === undefined) {
      const text = latest();
      if (text === undefined) return;
      const part: ExecutablePart = { type: "text", tree: { type: "root", children: [] }, text, sources: [] };
      receipt = await engine.run(onePart(part), target, runOptions);
    } else {
      const shown = { text: message.shown ?? "", plain: message.shown ?? "" };
      const part: ExecutablePart = {
        type: "edit",
        messageId: id,
        text: shown,
        latest,
        intervalMs: interval,
        sources: [],
      };
      receipt = await engine.run(onePart(part), target, editOptions);
    }
    const failure = receipt.failures[0];
    if (failure !== undefined) throw failure.error;
    if (onItsWay === undefined) return;
    if (id === undefined) {
      message.id = receipt.messages[0]?.id;
      // The message replied to was gone: the send went without the reply.
      if (receipt.degraded.some((entry) => entry.from === "reply")) message.replyTo = undefined;
    }
    message.shown = onItsWay.text.text;
    shownMarkdown = onItsWay.markdown;
    truncated = endsWithEllipsis(onItsWay.text.text) && !endsWithEllipsis(onItsWay.markdown);
    onItsWay = undefined;
  };

  const run = async (): Promise<void> => {
    try {
      await drain();
    } finally {
      running = false;
    }
  };

  const drain = async (): Promise<void> => {
    while (pending !== undefined && state === "live" && !signal.aborted) {
      try {
        await show();
      } catch {
        // The preview stops where it is (also when its source throws); settle delivers the
        // whole reply regardless.
        if (state === "live") broken = true;
        return;
      }
    }
  };

  const accept = (source: () => string): void => {
    if (state !== "live" || broken || signal.aborted) return;
    pending = source;
    if (running) return;
    running = true;
    loop = run();
  };

  return {
    get replaced() {
      return message.replaced;
    },
    update(markdown: string) {
      if (typeof markdown === "string") accept(() => markdown);
    },
    updateFrom(source: () => string) {
      if (typeof source === "function") accept(source);
    },
    async settle(payload, sendOptions) {
      if (state === "cancelled")
        throw new PayloadError("settle() after cancel(): send the reply with adapter.send instead", [
          { path: ["preview"], message: "cancelled", code: "custom" },
        ]);
      state = "settling";
      wake.abort();
      await loop;
      try {
        const checked = engine.check(payload, target, sendOptions);
        return await engine.exclusive(checked.options.idempotencyKey, async () => {
          const prepared = await engine.prepare(checked);
          const id = message.id;
          // Repeated with a key that delivered parts already: the rest goes as send sends it.
          if (
            id === undefined ||
            message.reused ||
            prepared.plan === undefined ||
            prepared.journal.messages.length > 0
          )
            return engine.execute(prepared);
          message.reused = true;
          const settled = await settlePreview(engine, edits, prepared, prepared.plan, { ...message, id });
          if (settled.replaced !== undefined) message.replaced = settled.replaced;
          return engine.execute(prepared, settled.plan, settled.prior);
        });
      } catch (error) {
        throw engine.redacted(error);
      }
    },
    async cancel(): Promise<CancelledPreview> {
      if (state === "live") state = "cancelled";
      // A send or edit in flight finishes (it may already be on screen): then what the message shows is known.
      wake.abort();
      await loop;
      stop.abort();
      // A settled preview is in the settle's receipt.
      if (message.id === undefined || message.reused) return { markdown: "", truncated: false };
      return { message: { id: message.id, kind: "text", part: 0 }, markdown: shownMarkdown, truncated };
    },
  };
}

/** previewText ends the head of a text over the limit with a paragraph `…`. */
function endsWithEllipsis(text: string): boolean {
  return /\n[ \t]*…$/.test(text.trimEnd());
}

function checkOptions(options: PreviewOptions): void {
  const { intervalMs, replyToId } = options;
  if (
    intervalMs !== undefined &&
    !(typeof intervalMs === "number" && intervalMs >= 0 && intervalMs < Infinity)
  )
    throw new PayloadError(
      `Invalid preview: options.intervalMs must be a non-negative number of milliseconds, got ${String(intervalMs)} (leave it out for the platform's edit interval)`,
      [{ path: ["options", "intervalMs"], message: "must be a non-negative number", code: "invalid_type" }],
    );
  if (replyToId !== undefined && (typeof replyToId !== "string" || replyToId.trim() === ""))
    throw new PayloadError(
      "Invalid preview: options.replyToId must be a non-empty string when given (the inbound message id, or leave it out)",
      [{ path: ["options", "replyToId"], message: "must be a non-empty string", code: "invalid_type" }],
    );
}

/** What the preview message shows and when it last changed; shared with its settle. */
interface PreviewMessage {
  /** Platform id, once the first update went out. */
  id: string | undefined;
  /** Rendered text it shows. */
  shown: string | undefined;
  /** The message it replies to, if any. */
  replyTo: string | undefined;
  /** Whether settle already turned it into a part of a reply. */
  reused: boolean;
  /** Set by settle when the message did not become the reply (see {@link LivePreview.replaced}). */
  replaced?: LivePreview["replaced"];
}
