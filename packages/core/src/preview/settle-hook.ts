import type {
  DeliveryJournal,
  OperationBase,
  ReceiptMessage,
  RenderedText,
  SentMessage,
  Transport,
} from "../adapter/types.js";
import { withRetries } from "../engine/retry.js";
import type { PlanHook } from "../engine/run-plan.js";
import { OutboxError } from "../errors/errors.js";
import { redactSecrets } from "../errors/redact.js";
import type { PartDegradation } from "../plan/types.js";
import type { PreviewEngine, PreviewMessage } from "./types.js";

/**
 * The settle rule (docs/live-preview.md, "Settle"), run on the final reply's plan:
 * - the reply replies to a message the preview does not (`previewReplyTo`; a reply tag that
 *   came after the preview started): a message cannot change what it replies to, so
 *   the preview is deleted (or left) and the reply goes as new messages.
 * - first part a text message longer than `edits.maxLength`: no edit; the preview is deleted
 *   (or left) and the part goes as a new message, reported as a degradation.
 * - first part a text message: the preview is edited into it (no edit when it already
 *   shows that text) and the receipt lists the preview's id for part 0; the rest follows.
 *   When that edit fails the part goes as a new message and the preview is deleted (or,
 *   without `deleteMessage`, left as it is), reported as a degradation.
 * - otherwise (the reply opens with media or an album): the preview is deleted, so the
 *   channel shows exactly what `send` would show. Without `deleteMessage` (or when the
 *   delete fails) the preview is edited into the first media message's caption, which then
 *   goes without one (`caption` → `text`); with no caption either, the preview is left.
 *   Whenever the preview does not become the reply, `message.replaced` says what became of
 *   it (a preview left behind is also a `preview` → `left` degradation).
 */
export function settleHook(
  engine: PreviewEngine,
  message: PreviewMessage,
  base: Omit<OperationBase, "replyTo">,
  previewReplyTo: string | undefined,
): PlanHook {
  const { transport, clock } = engine;
  const retry = { ...engine.retry, clock, to: base.target.to, signal: base.signal };
  const note = (from: string, to: string, reason: string): PartDegradation => ({
    part: 0,
    from,
    to,
    reason: redactSecrets(reason, engine.secrets),
  });

  return async (plan, journal, replyTo) => {
    const id = message.id;
    if (id === undefined || message.reused || journal.messages.length > 0) return journal;
    message.reused = true;
    const reused: ReceiptMessage = { id, kind: "text", part: 0 };

    const edit = async (text: RenderedText): Promise<SentMessage["degraded"]> => {
      if (text.text === message.shown) return undefined;
      const wait = message.changedAt + engine.edits.minIntervalMs - clock.now();
      if (wait > 0) await clock.sleep(wait, base.signal);
      const editText = transport.editText as NonNullable<Transport["editText"]>;
      const sent = await withRetries(() => editText({ ...base, type: "edit", messageId: id, text }), retry);
      message.shown = text.text;
      message.changedAt = clock.now();
      return sent.degraded;
    };
    const remove = async (): Promise<boolean> => {
      const deleteMessage = transport.deleteMessage;
      if (deleteMessage === undefined) return false;
      try {
        await withRetries(() => deleteMessage({ ...base, type: "delete", messageId: id }), retry);
        return true;
      } catch {
        base.signal?.throwIfAborted();
        return false;
      }
    };
    const describe = (error: unknown): string =>
      error instanceof OutboxError ? `${error.code}: ${error.message}` : String(error);
    const withEntries = (messages: ReceiptMessage[], degraded: PartDegradation[]): DeliveryJournal => ({
      ...journal,
      messages: [...journal.messages, ...messages],
      degraded: [...journal.degraded, ...degraded],
    });

    /** The preview does not become the reply: record why (and, when it stays, a degradation). */
    const replaced = (preview: "deleted" | "left", reason: string): DeliveryJournal => {
      message.replaced = { preview, reason: redactSecrets(reason, engine.secrets) };
      return withEntries([], preview === "left" ? [note("preview", "left", reason)] : []);
    };
    if (replyTo !== undefined && replyTo !== previewReplyTo) {
      const removed = await remove();
      return replaced(
        removed ? "deleted" : "left",
        `the reply replies to message ${replyTo} and the live preview does not (the reply tag came after the preview started): the reply went as new messages${removed ? " and the preview was deleted" : "; the preview keeps its last text"}`,
      );
    }

    /** The preview is not reused: deleted (or left), the first part goes as a new message, noted. */
    const notReused = async (why: string): Promise<DeliveryJournal> => {
      const removed = await remove();
      const preview = removed ? "deleted" : "left";
      const reason = `${why}: the first message went as a new one${removed ? " and the preview was deleted" : "; the preview keeps its last text"}`;
      replaced(preview, reason);
      return withEntries([], [note("preview", preview, reason)]);
    };

    const first = plan.parts[0];
    const editLimit = engine.edits.maxLength;
    const length =
      first?.type === "text" && editLimit !== undefined ? engine.renderer.measure(first.text.text) : 0;
    if (editLimit !== undefined && length > editLimit)
      return notReused(
        `the first message (${length}) is longer than an edit may carry (edits.maxLength ${editLimit})`,
      );
    if (first?.type === "text") {
      try {
        const applied = await edit(first.text);
        const planned = plan.degraded.filter((entry) => entry.part === 0);
        return {
          ...withEntries(
            [reused],
            applied === undefined ? planned : [...planned, note(applied.from, applied.to, applied.reason)],
          ),
          deliveredParts: [...journal.deliveredParts, 0],
        };
      } catch (error) {
        base.signal?.throwIfAborted();
        return notReused(`editing the live preview into the reply failed (${describe(error)})`);
      }
    }
    if (await remove())
      return replaced(
        "deleted",
        "the reply opens with media: the live preview was deleted and the reply went as new messages",
      );
    const caption = first?.type === "media" || first?.type === "album" ? first.caption : undefined;
    if (caption !== undefined) {
      try {
        await edit(caption);
        return withEntries(
          [reused],
          [
            note(
              "caption",
              "text",
              "the live preview could not be deleted: it became the reply's text and the first media message went without caption",
            ),
          ],
        );
      } catch {
        base.signal?.throwIfAborted();
      }
    }
    return replaced(
      "left",
      "the reply opens with no text for the live preview to become and the preview could not be deleted: it keeps its last text",
    );
  };
}
