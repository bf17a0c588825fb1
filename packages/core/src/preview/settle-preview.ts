import type { DeliveryReceipt, EditCapabilities, LivePreview } from "../adapter/types.js";
import type { DeliveryEngine, PreparedSend } from "../engine/delivery-engine.js";
import type { ExecutablePart, ExecutionPlan } from "../plan/message-parts.js";
import type { DeliveryPlan, PartDegradation } from "../plan/types.js";
import { type SeenPreview, settledPlan, settlePlan } from "./settle-plan.js";

/** The preview message as settle finds it. */
export interface SettlingPreview {
  /** Its platform id. */
  id: string;
  /** The rendered text it shows. */
  shown: string | undefined;
  /** The message it replies to, if any. */
  replyTo: string | undefined;
}

/** The reply's plan with the preview settled into it. */
export interface SettledPreview {
  /** The plan to execute as the send. */
  plan: ExecutionPlan;
  /** Degradations already made on part 0 (the preview deleted or left, a caption moved). */
  prior: PartDegradation[];
  /** What became of the preview when it did not become the reply. */
  replaced?: LivePreview["replaced"];
}

/** A plan of one part and no planned degradation. */
export function onePart(part: ExecutablePart): ExecutionPlan {
  return { parts: [part], degraded: [] };
}

/**
 * Settle the preview into the reply's plan by the settle rule ({@link settlePlan}): its step
 * on the preview (an edit, spaced by the pacer like every edit, or a delete) runs as a one-part plan;
 * when that fails the rule is asked again knowing it. The plan returned has part 0 as the
 * preview already edited (an applied edit part, carrying part 0's media when it took its
 * caption), or is the reply's own plan when the preview was deleted or left.
 */
export async function settlePreview(
  engine: DeliveryEngine,
  edits: EditCapabilities,
  prepared: PreparedSend,
  plan: DeliveryPlan,
  preview: SettlingPreview,
): Promise<SettledPreview> {
  const { renderer } = engine;
  const { target } = prepared;
  const signal = prepared.options.signal;
  const options = signal === undefined ? {} : { signal };
  /** One call on the preview message, run by the engine like a send. */
  const call = (part: ExecutablePart) => engine.run(onePart(part), target, options);
  const rules = {
    replyTo: prepared.replyTo,
    maxLength: edits.maxLength,
    measure: (text: string) => renderer.measure(text),
  };
  const seen: SeenPreview = { shown: preview.shown, replyTo: preview.replyTo, undeletable: !engine.deletes };
  for (;;) {
    const step = settlePlan(plan, seen, rules);
    if (step.type === "delete" || step.type === "leave") {
      if (
        step.type === "delete" &&
        !(await call({ type: "delete", messageId: preview.id, sources: [] })).ok
      ) {
        seen.undeletable = true;
        continue;
      }
      return { ...settledPlan(plan, step, preview.id), replaced: step.replaced };
    }
    let edited: DeliveryReceipt["degraded"] = [];
    if (step.type === "edit") {
      // Spaced by the pacer: at least the edit interval after the preview last changed.
      const receipt = await call({ type: "edit", messageId: preview.id, text: step.text, sources: [] });
      const failure = receipt.failures[0];
      if (failure !== undefined) {
        seen.editFailed = `${failure.error.code}: ${failure.error.message}`;
        continue;
      }
      edited = receipt.degraded;
    }
    return settledPlan(plan, step, preview.id, edited);
  }
}
