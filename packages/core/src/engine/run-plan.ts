import type { DeliveryJournal, DeliveryReceipt, DeliveryStore, SendOptions } from "../adapter/types.js";
import { type OutboxError, StoreError, TransportError } from "../errors/errors.js";
import { describePart, excerpt, failureEntry, notAttempted, unreachable } from "../errors/failure-entry.js";
import { redactSecrets } from "../errors/redact.js";
import { partChannel, traced } from "../observe/channels.js";
import type { ExecutablePart, ExecutionPlan } from "../plan/message-parts.js";
import type { Degradation, PartDegradation } from "../plan/types.js";
import { deliverPart, type PartContext, type PartResult, type SendablePart } from "./deliver-part.js";
import { isAmbiguous } from "./retry.js";

/** The degradation of a reply the platform cannot make, noted on the first part delivered. */
export const NO_REPLY: Degradation = { from: "reply", to: "none", reason: "the platform has no replies" };

/** The degradation of `[[reply_to_current]]` sent without a current message to reply to. */
export const NO_CURRENT: Degradation = {
  from: "reply",
  to: "none",
  reason:
    "the reply asks to answer the current message ([[reply_to_current]]), and the target names none: set target.currentMessageId to the inbound message's id",
};

/** What executing a plan needs beyond sending parts. */
export interface RunContext extends PartContext {
  /** Message to reply to, when the payload replies and the platform can. */
  replyTo: string | undefined;
  /** Which operations carry the reply. */
  replyMode: NonNullable<SendOptions["replyMode"]>;
  /** Why a reply the payload asks for is not made, if so: noted on the first delivered part. */
  replyDropped: Degradation | undefined;
  /** The journal so far (empty for a fresh send). */
  journal: DeliveryJournal;
  /** Where to save the journal after each delivered part; absent without an idempotency key. */
  save: ((journal: DeliveryJournal) => Promise<void>) | undefined;
  /** Save the journal before each part too (marked `sending`), see {@link DeliveryStore.writeAhead}. */
  writeAhead?: boolean;
  /** What to do with the parts the journal holds as ambiguous ({@link SendOptions.ambiguous}, its default applied). */
  ambiguous: NonNullable<SendOptions["ambiguous"]>;
  /** Secrets the adapter declared, removed from every failure and degradation. */
  secrets: readonly string[];
}

/**
 * Execute a plan in order. Parts already in the journal are skipped; a failure does not
 * stop the rest. With `replyMode: "first"` the reply goes on the first operation that is
 * attempted, and moves on to the next part when that one certainly was not delivered.
 * Returns the combined receipt (journal + this run).
 */
export async function runPlan(plan: ExecutionPlan, context: RunContext): Promise<DeliveryReceipt> {
  const { save, secrets } = context;
  // Without a store the journal was made for this send alone: it is filled in place, and
  // only gathers the receipt's entries (nothing reads its part lists afterwards).
  const journal = save === undefined ? context.journal : withoutSending(structuredClone(context.journal));
  // What is known of each part, by index: one array where two Sets cost a send their tables.
  // A stored index that is no part of this plan is left out (it bounds the array).
  const count = plan.parts.length;
  journal.partCount = count;
  const marks: PartMark[] = [];
  for (const index of journal.ambiguousParts ?? []) if (index < count) marks[index] = "ambiguous";
  for (const index of journal.deliveredParts) if (index < count) marks[index] = "delivered";
  // A journal saved while a part was being sent: the process stopped there; it may have gone
  // out. Resent with the same key only while the platform is sure to remember it.
  const sending = context.journal.sending;
  if (sending !== undefined && sending < count && marks[sending] !== "delivered" && !remembered(context))
    marks[sending] = "ambiguous";
  const writeAhead = context.writeAhead === true ? save : undefined;
  // When the part being marked was first marked: kept across its attempts and across runs, so
  // the platform's memory of its key is measured from the first request that may have arrived.
  let firstMark =
    sending === undefined || context.journal.sendingAt === undefined
      ? undefined
      : { part: sending, at: context.journal.sendingAt };
  const failures: DeliveryReceipt["failures"] = [];
  let replyPending = context.replyTo !== undefined && journal.messages.length === 0;
  let droppedNoted = journal.messages.length > 0;
  /** Set once the platform proved unreachable: the parts after it fail at once (fail fast). */
  let down: OutboxError | undefined;

  for (let index = 0; index < count; index += 1) {
    const part = plan.parts[index] as ExecutablePart;
    if (marks[index] === "delivered") continue;
    if (part.type === "failed") {
      failures.push(failure(index, part.error, secrets, part));
      continue;
    }
    if (marks[index] === "ambiguous" && context.ambiguous === "report") {
      failures.push(failure(index, maybeDelivered(index), secrets, part));
      continue;
    }
    if (marks[index] === "ambiguous" && context.ambiguous === "delivered") {
      // The caller saw it arrive: the journal records it as delivered, with no message id.
      marks[index] = "delivered";
      if (save === undefined) continue;
      journal.deliveredParts = marked(marks, "delivered");
      journal.ambiguousParts = marked(marks, "ambiguous");
      await saveOrNote(save, journal, index, context);
      continue;
    }
    if (down !== undefined) {
      failures.push(failure(index, notAttempted(down), secrets, part));
      continue;
    }
    const replyTo =
      context.replyMode === "all" || (context.replyMode === "first" && replyPending)
        ? context.replyTo
        : undefined;
    // The `sending` mark is written when a request for the part leaves, not before its pacing
    // wait: a process stopped while waiting sent nothing, and the next attempt sends the part.
    const partContext =
      writeAhead === undefined
        ? context
        : marking(context, () => {
            if (firstMark?.part !== index) firstMark = { part: index, at: Date.now() };
            return writeAhead({
              ...journal,
              ambiguousParts: marked(marks, "ambiguous"),
              sending: index,
              sendingAt: firstMark.at,
            });
          });
    const result = await traced(
      partChannel,
      () => ({ part: index, type: part.type, parent: context.retry.trace }),
      (trace) =>
        deliverPart(
          withoutRescuedCaption(part, index, journal),
          index,
          replyTo,
          trace === undefined ? partContext : { ...partContext, retry: { ...partContext.retry, trace } },
        ),
    );
    const entries = degradations(result.error === undefined ? plan.degraded : [], result, index, secrets);
    const unsure = result.error !== undefined && isAmbiguous(result.error);
    marks[index] = result.error === undefined ? "delivered" : unsure ? "ambiguous" : undefined;
    if (result.error === undefined) {
      if (context.replyDropped !== undefined && !droppedNoted)
        entries.unshift({ part: index, ...context.replyDropped });
      droppedNoted = true;
    } else {
      failures.push(failure(index, result.error, secrets, part));
      if (unreachable(result.error)) down = result.error;
    }
    if (result.messages.length > 0 || result.error === undefined || unsure) replyPending = false;
    if (result.error !== undefined && result.messages.length === 0 && !unsure && writeAhead === undefined)
      continue;
    for (const message of result.messages) journal.messages.push(message);
    for (const entry of entries) journal.degraded.push(entry);
    if (save === undefined) continue;
    journal.deliveredParts = marked(marks, "delivered");
    journal.ambiguousParts = marked(marks, "ambiguous");
    await saveOrNote(save, journal, index, context);
  }
  return receiptOf(journal, failures);
}

/**
 * Save the journal after part `index`. A failed save does not stop the delivery (the part went
 * out, the rest still goes): it is reported as the part's `journal` degradation, because a
 * repeat of this send with its key may send the part again. A send cancelled meanwhile (a
 * queue worker that lost its job) stops here.
 */
async function saveOrNote(
  save: (journal: DeliveryJournal) => Promise<void>,
  journal: DeliveryJournal,
  index: number,
  context: RunContext,
): Promise<void> {
  try {
    await save(journal);
  } catch (error) {
    context.retry.signal?.throwIfAborted();
    journal.degraded.push({
      part: index,
      from: "journal",
      to: "none",
      reason: redactSecrets(
        `the journal could not be saved after this part (${errorText(error)}); a repeat of this send with its idempotencyKey may send the part again`,
        context.secrets,
      ),
    });
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The part context whose every request writes `mark` right before it leaves. A mark that
 * cannot be saved fails the attempt as a failure before sending (nothing left), unless the
 * send was cancelled meanwhile.
 */
function marking(context: PartContext, mark: () => Promise<void>): PartContext {
  const beforeCall = (): Promise<void> =>
    mark().catch((error: unknown) => {
      context.retry.signal?.throwIfAborted();
      throw new StoreError(
        `the delivery journal could not be saved (the part's sending mark), so the part was not sent: ${errorText(error)}`,
        { cause: error },
      );
    });
  return { ...context, retry: { ...context.retry, beforeCall } };
}

/** A journal without `sending` and its time (the part a stopped process was sending when it was saved). */
function withoutSending(journal: DeliveryJournal): DeliveryJournal {
  if (!("sending" in journal) && !("sendingAt" in journal)) return journal;
  const { sending: _sending, sendingAt: _sendingAt, ...rest } = journal;
  return rest;
}

/**
 * Whether the platform still remembers the key of the journal's `sending` part: it
 * deduplicates by key, says for how long, and the mark is younger than that. The mark is saved
 * before the request leaves, so its age is never less than the request's.
 */
function remembered(context: RunContext): boolean {
  const { transport, journal } = context;
  if (transport.deduplicatesByKey !== true || transport.deduplicatesForMs === undefined) return false;
  if (journal.sendingAt === undefined) return false;
  const age = Date.now() - journal.sendingAt;
  return age >= 0 && age < transport.deduplicatesForMs;
}

/** A failure entry (docs/delivery.md, "Failures"), error and content redacted. */
function failure(
  index: number,
  error: OutboxError,
  secrets: readonly string[],
  part: ExecutablePart,
): DeliveryReceipt["failures"][number] {
  const content =
    part.type === "edit"
      ? `edit of message ${part.messageId} to text "${excerpt(part.text.plain)}"`
      : part.type === "delete"
        ? `delete of message ${part.messageId}`
        : describePart(part, error);
  return failureEntry(index, error, content, secrets);
}

/** The part's planned degradations (from `planned`, the plan's) then its sending ones, reasons redacted. */
function degradations(
  planned: readonly PartDegradation[],
  result: PartResult,
  index: number,
  secrets: readonly string[],
): PartDegradation[] {
  const entries: PartDegradation[] = [];
  for (const entry of planned)
    if (entry.part === index) entries.push({ ...entry, reason: redactSecrets(entry.reason, secrets) });
  for (const entry of result.degraded)
    entries.push({ part: index, ...entry, reason: redactSecrets(entry.reason, secrets) });
  return entries;
}

/** What a send knows of a part: delivered, possibly delivered (ambiguous), or neither. */
type PartMark = "delivered" | "ambiguous" | undefined;

/** The indexes of the parts marked `mark`, ascending. */
function marked(marks: readonly PartMark[], mark: "delivered" | "ambiguous"): number[] {
  const out: number[] = [];
  for (let index = 0; index < marks.length; index += 1) if (marks[index] === mark) out.push(index);
  return out;
}

/** The receipt of a journal plus this run's failures, entries in part order. */
export function receiptOf(journal: DeliveryJournal, failures: DeliveryReceipt["failures"]): DeliveryReceipt {
  return {
    ok: failures.length === 0,
    messages: byPart(journal.messages),
    failures,
    degraded: byPart(journal.degraded),
  };
}

/** A copy of `entries` in part order (a stable sort, skipped when they are in order already). */
function byPart<T extends { part: number }>(entries: readonly T[]): T[] {
  const out = entries.slice();
  for (let i = 1; i < out.length; i += 1)
    if ((out[i - 1] as T).part > (out[i] as T).part) return out.sort((a, b) => a.part - b.part);
  return out;
}

/** The failure reported for a part an earlier attempt may have delivered. */
function maybeDelivered(index: number): TransportError {
  return new TransportError(
    `part ${index} may already have been delivered: an earlier attempt failed after sending; not resent (ambiguous: "report")`,
    { ambiguous: true },
  );
}

/** A caption already delivered as text (its media failed in an earlier attempt) is not sent twice. */
function withoutRescuedCaption(part: SendablePart, index: number, journal: DeliveryJournal): SendablePart {
  if (part.type !== "media" && part.type !== "album") return part;
  if (!journal.messages.some((message) => message.part === index)) return part;
  const { caption: _dropped, ...rest } = part;
  return rest;
}

/** Save a journal under a key (bound helper for {@link RunContext.save}). */
export function journalSaver(store: DeliveryStore, key: string): (journal: DeliveryJournal) => Promise<void> {
  return (journal) => store.set(key, journal);
}
