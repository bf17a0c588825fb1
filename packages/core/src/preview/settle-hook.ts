import type {
  DeliveryJournal,
  OperationBase,
  ReceiptMessage,
  RenderedText,
  SentMessage,
  Transport,
} from "../adapter/types.js";
import { pacedCall } from "../engine/paced-call.js";
import { withRetries } from "../engine/retry.js";
import type { PlanHook } from "../engine/run-plan.js";
import { OutboxError } from "../errors/errors.js";
import { redactSecrets } from "../errors/redact.js";
import type { PartDegradation } from "../plan/types.js";
import { type SeenPreview, settlePlan } from "./settle-plan.js";
import type { PreviewEngine, PreviewMessage } from "./types.js";

/**
 * Runs the settle rule ({@link settlePlan}) on the final reply's plan: takes its step on the
 * preview message (an edit or a delete, paced and retried like a send), asks the rule
 * again when that call fails, and returns the journal the plan runs from: the preview as
 * part 0 (or as part 0's caption) when it became the reply, with the step's receipt entries.
 * Whenever the preview does not become the reply, `message.replaced` says what became of it.
 */
export function settleHook(
  engine: PreviewEngine,
  message: PreviewMessage,
  base: Omit<OperationBase, "replyTo">,
  previewReplyTo: string | undefined,
): PlanHook {
  const { transport, clock } = engine;
  const retry = { ...engine.retry, clock, to: base.target.to, signal: base.signal };
  const rules = {
    maxLength: engine.edits.maxLength,
    measure: (text: string) => engine.renderer.measure(text),
  };
  const redacted = (entry: PartDegradation): PartDegradation => ({
    ...entry,
    reason: redactSecrets(entry.reason, engine.secrets),
  });

  return async (plan, journal, replyTo) => {
    const id = message.id;
    if (id === undefined || message.reused || journal.messages.length > 0) return journal;
    message.reused = true;

    const edit = async (text: RenderedText): Promise<SentMessage["degraded"]> => {
      const wait = message.changedAt + engine.edits.minIntervalMs - clock.now();
      if (wait > 0) await clock.sleep(wait, base.signal);
      const editText = transport.editText as NonNullable<Transport["editText"]>;
      const sent = await pacedCall(() => editText({ ...base, type: "edit", messageId: id, text }), retry);
      message.shown = text.text;
      message.changedAt = clock.now();
      return sent.degraded;
    };
    const remove = async (): Promise<boolean> => {
      const deleteMessage = transport.deleteMessage as NonNullable<Transport["deleteMessage"]>;
      try {
        await withRetries(() => deleteMessage({ ...base, type: "delete", messageId: id }), retry);
        return true;
      } catch {
        base.signal?.throwIfAborted();
        return false;
      }
    };
    const withEntries = (
      messages: ReceiptMessage[],
      degraded: PartDegradation[],
      deliveredParts: number[],
    ): DeliveryJournal => ({
      ...journal,
      messages: [...journal.messages, ...messages],
      degraded: [...journal.degraded, ...degraded.map(redacted)],
      deliveredParts: [...journal.deliveredParts, ...deliveredParts],
    });

    const seen: SeenPreview = {
      shown: message.shown,
      replyTo: previewReplyTo,
      undeletable: transport.deleteMessage === undefined,
    };
    for (;;) {
      const step = settlePlan(plan, seen, { ...rules, replyTo });
      if (step.type !== "keep" && step.type !== "edit") {
        if (step.type === "delete" && !(await remove())) {
          seen.undeletable = true;
          continue;
        }
        message.replaced = { ...step.replaced, reason: redactSecrets(step.replaced.reason, engine.secrets) };
        return withEntries([], step.degraded, []);
      }
      let applied: SentMessage["degraded"];
      try {
        if (step.type === "edit") applied = await edit(step.text);
      } catch (error) {
        base.signal?.throwIfAborted();
        seen.editFailed = error instanceof OutboxError ? `${error.code}: ${error.message}` : String(error);
        continue;
      }
      const reused: ReceiptMessage = { id, kind: "text", part: 0 };
      if (step.into === "caption") return withEntries([reused], step.degraded, []);
      const degraded = applied === undefined ? step.degraded : [...step.degraded, { part: 0, ...applied }];
      return withEntries([reused], degraded, [0]);
    }
  };
}
