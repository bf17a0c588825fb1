import type {
  CancelledPreview,
  EditCapabilities,
  LivePreview,
  PreviewOptions,
  RenderedText,
} from "../adapter/types.js";
import type { DeliveryEngine } from "../engine/delivery-engine.js";
import { PayloadError } from "../errors/errors.js";
import type { Target } from "../payload/types.js";
import { createPreviewText } from "./preview-text.js";
import { onePart, settlePreview } from "./settle-preview.js";

/**
 * Start a live preview on `target` (already checked). The first update that shows
 * anything sends a text message (paced, retried, replying to `replyToId`, in the target's
 * thread); later ones edit it, at most once per `max(edits.minIntervalMs, intervalMs)`,
 * only with the latest text, never with the text already shown. A failed send or edit
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
  const { capabilities, renderer, clock } = engine;
  checkOptions(options);
  const interval = Math.max(edits.minIntervalMs, options.intervalMs ?? 0);
  const replyTo = capabilities.replies ? options.replyToId : undefined;
  const message: PreviewMessage = { id: undefined, shown: undefined, replyTo, changedAt: 0, reused: false };
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
  /**
   * `clock.now()` when a text last rendered the same as the message shows: rendering the
   * whole reply costs its length, so once something is shown it happens at most once per
   * interval, also while the text stays the same (a head over the limit, a trailing space).
   */
  let unchangedAt = Number.NEGATIVE_INFINITY;
  /** The update loop; `running` turns false synchronously as it ends, so an update never waits for a loop that is over. */
  let loop: Promise<void> = Promise.resolve();
  let running = false;
  const runOptions = replyTo === undefined ? { signal } : { signal, replyTo };

  /** Send the message or edit it into `text`; throws the failure's (redacted) error. */
  const show = async (text: RenderedText): Promise<void> => {
    const id = message.id;
    const receipt = await engine.run(
      onePart(
        id === undefined
          ? { type: "text", tree: { type: "root", children: [] }, text, sources: [] }
          : { type: "edit", messageId: id, text, sources: [] },
      ),
      target,
      id === undefined ? runOptions : { signal },
    );
    const failure = receipt.failures[0];
    if (failure !== undefined) throw failure.error;
    if (id === undefined) {
      message.id = receipt.messages[0]?.id;
      // The message replied to was gone: the send went without the reply.
      if (receipt.degraded.some((entry) => entry.from === "reply")) message.replyTo = undefined;
    }
    message.shown = text.text;
    message.changedAt = clock.now();
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
      const wait = Math.max(message.changedAt, unchangedAt) + interval - clock.now();
      if (message.id !== undefined && wait > 0) {
        try {
          await clock.sleep(wait, AbortSignal.any([wake.signal, signal]));
        } catch {
          return;
        }
        if (state !== "live") return;
      }
      const source = pending;
      pending = undefined;
      let markdown: string;
      try {
        markdown = source();
      } catch {
        broken = true;
        return;
      }
      if (typeof markdown !== "string") continue;
      const text = previewText(markdown);
      if (text === undefined || text.text === message.shown) {
        unchangedAt = clock.now();
        continue;
      }
      try {
        await show(text);
        shownMarkdown = markdown;
        truncated = endsWithEllipsis(text.text) && !endsWithEllipsis(markdown);
      } catch {
        // The preview stops where it is; settle delivers the whole reply regardless.
        broken = true;
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
  /** `clock.now()` when it last changed (sent or edited). */
  changedAt: number;
  /** Whether settle already turned it into a part of a reply. */
  reused: boolean;
  /** Set by settle when the message did not become the reply (see {@link LivePreview.replaced}). */
  replaced?: LivePreview["replaced"];
}
