import type { DeliveryJournal, DeliveryReceipt, DeliveryStore, SendOptions } from "../adapter/types.js";
import { type OutboxError, TransportError } from "../errors/errors.js";
import { redactError, redactSecrets } from "../errors/redact.js";
import type { DeliveryPlan, PartDegradation } from "../plan/types.js";
import { deliverPart, type PartContext, type SendablePart } from "./deliver-part.js";
import { isAmbiguous } from "./retry.js";

/**
 * Runs between planning and executing a plan (a live preview's settle): may deliver parts
 * itself and returns the journal to execute from (the one given when it delivered nothing).
 */
export type PlanHook = (plan: DeliveryPlan, journal: DeliveryJournal) => Promise<DeliveryJournal>;

/** What executing a plan needs beyond sending parts. */
export interface RunContext extends PartContext {
  /** Message to reply to, when the payload replies and the platform can. */
  replyTo: string | undefined;
  /** Which operations carry the reply. */
  replyMode: NonNullable<SendOptions["replyMode"]>;
  /** The payload asks for a reply the platform cannot make: note it on the first delivered part. */
  replyUnsupported: boolean;
  /** The journal so far (empty for a fresh send). */
  journal: DeliveryJournal;
  /** Where to save the journal after each delivered part; absent without an idempotency key. */
  save: ((journal: DeliveryJournal) => Promise<void>) | undefined;
  /** Save the journal before each part too (marked `sending`), see {@link DeliveryStore.writeAhead}. */
  writeAhead?: boolean;
  /** Secrets the adapter declared, removed from every failure and degradation. */
  secrets: readonly string[];
}

/**
 * Execute a plan in order. Parts already in the journal are skipped; a failure does not
 * stop the rest. With `replyMode: "first"` the reply goes on the first operation that is
 * attempted, and moves on to the next part when that one certainly was not delivered.
 * Returns the combined receipt (journal + this run).
 */
export async function runPlan(plan: DeliveryPlan, context: RunContext): Promise<DeliveryReceipt> {
  // Without a store the journal was made for this send alone: no copy needed.
  const own = context.save === undefined ? context.journal : structuredClone(context.journal);
  const { sending, ...saved } = own;
  const journal: DeliveryJournal = { ...saved, partCount: plan.parts.length };
  const delivered = new Set(journal.deliveredParts);
  const ambiguous = new Set(journal.ambiguousParts ?? []);
  // A journal saved while a part was being sent: the process stopped there; it may have gone out.
  if (sending !== undefined && !delivered.has(sending)) ambiguous.add(sending);
  const save = context.save;
  const writeAhead = context.writeAhead === true ? save : undefined;
  const failures: DeliveryReceipt["failures"] = [];
  const fail = (part: number, error: OutboxError): void => {
    failures.push({ part, error: redactError(error, context.secrets) });
  };
  let replyPending = context.replyTo !== undefined && journal.messages.length === 0;
  let unsupportedNoted = journal.messages.length > 0;

  for (const [index, part] of plan.parts.entries()) {
    if (delivered.has(index)) continue;
    if (part.type === "failed") {
      fail(index, part.error);
      continue;
    }
    if (ambiguous.has(index) && !context.retry.policy.retryAmbiguous) {
      fail(index, maybeDelivered(index));
      continue;
    }
    const replyTo =
      context.replyMode === "all" || (context.replyMode === "first" && replyPending)
        ? context.replyTo
        : undefined;
    await writeAhead?.({ ...journal, ambiguousParts: [...ambiguous].sort((a, b) => a - b), sending: index });
    const result = await deliverPart(withoutRescuedCaption(part, index, journal), index, replyTo, context);
    const planned = result.error === undefined ? plan.degraded.filter((entry) => entry.part === index) : [];
    const entries: PartDegradation[] = [
      ...planned,
      ...result.degraded.map((entry) => ({ part: index, ...entry })),
    ].map((entry) => ({ ...entry, reason: redactSecrets(entry.reason, context.secrets) }));
    const unsure = result.error !== undefined && isAmbiguous(result.error);
    if (unsure) ambiguous.add(index);
    else ambiguous.delete(index);
    if (result.error === undefined) {
      delivered.add(index);
      if (context.replyUnsupported && !unsupportedNoted)
        entries.unshift({ part: index, from: "reply", to: "none", reason: "the platform has no replies" });
      unsupportedNoted = true;
    } else fail(index, result.error);
    if (result.messages.length > 0 || result.error === undefined || unsure) replyPending = false;
    if (result.messages.length === 0 && !unsure && writeAhead === undefined) continue;
    journal.messages.push(...result.messages);
    journal.degraded.push(...entries);
    journal.deliveredParts = [...delivered].sort((a, b) => a - b);
    journal.ambiguousParts = [...ambiguous].sort((a, b) => a - b);
    await save?.(journal);
  }
  return receiptOf(journal, failures);
}

/** The receipt of a journal plus this run's failures, entries in part order. */
export function receiptOf(journal: DeliveryJournal, failures: DeliveryReceipt["failures"]): DeliveryReceipt {
  const byPart = <T extends { part: number }>(entries: T[]): T[] =>
    [...entries].sort((a, b) => a.part - b.part);
  return {
    ok: failures.length === 0,
    messages: byPart(journal.messages),
    failures,
    degraded: byPart(journal.degraded),
  };
}

/** The failure reported for a part an earlier attempt may have delivered. */
function maybeDelivered(index: number): TransportError {
  return new TransportError(
    `part ${index} may already have been delivered: an earlier attempt failed after sending; not resent (retryAmbiguous is off)`,
    { ambiguous: true },
  );
}

/** A caption already delivered as text (its media failed in an earlier attempt) is not sent twice. */
function withoutRescuedCaption(part: SendablePart, index: number, journal: DeliveryJournal): SendablePart {
  if (part.type === "text" || !journal.messages.some((message) => message.part === index)) return part;
  const { caption: _dropped, ...rest } = part;
  return rest;
}

/** Save a journal under a key (bound helper for {@link RunContext.save}). */
export function journalSaver(store: DeliveryStore, key: string): (journal: DeliveryJournal) => Promise<void> {
  return (journal) => store.set(key, journal);
}
