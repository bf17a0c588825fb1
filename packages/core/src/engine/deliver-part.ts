import type {
  DeleteOperation,
  EditOperation,
  MessageKind,
  Operation,
  OperationBase,
  ReceiptMessage,
  SentMessage,
  Transport,
} from "../adapter/types.js";
import {
  MediaError,
  OutboxError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "../errors/errors.js";
import { unreachable } from "../errors/failure-entry.js";
import type { Target } from "../payload/types.js";
import type { DeletePart, EditPart } from "../plan/message-parts.js";
import type { AlbumPart, Degradation, MediaPart, TextPart } from "../plan/types.js";
import {
  prepareTravel,
  type TravelContext,
  type TravellingPart,
  textTravel,
  uploadedInstead,
} from "./media-travel.js";
import { type OperationRole, operationKey, type RandomSendKey } from "./operation-key.js";
import { pacedCall } from "./paced-call.js";
import { isAmbiguous, type RetryContext, withRetries } from "./retry.js";

/** A part that goes to the platform as a new message. */
export type NewMessagePart = TextPart | MediaPart | AlbumPart;

/** A part that goes to the platform: a new message, or an edit or delete of one already sent. */
export type SendablePart = NewMessagePart | EditPart | DeletePart;

/** What happened to one part. */
export interface PartResult {
  /** Messages the platform now holds for this part (a rescued caption, even on failure). */
  messages: ReceiptMessage[];
  /** Degradations applied while sending. */
  degraded: Degradation[];
  /** Why the part was not delivered, when it was not. */
  error?: OutboxError;
}

/** What sending a part needs. */
export interface PartContext {
  /** The adapter's transport. */
  transport: Transport;
  /** Where to send. */
  target: Target;
  /** Pacing and retries. */
  retry: RetryContext;
  /** Seed of every operation's `key`: the send's `idempotencyKey`, or digits of its own ({@link RandomSendKey}). */
  sendKey: string | RandomSendKey;
  /** The media host and renderer, for items that travel as a hosted link. */
  travel?: TravelContext;
  /**
   * The calls stand outside any send (a live preview's own message): they carry no operation
   * key and tell the gate no part, and the pacer spaces the edits of a text they send.
   */
  partless?: boolean;
  /** The least interval between two edits of one message (`edits.minIntervalMs`). Default 0. */
  editIntervalMs?: number;
  /**
   * Ends an edit's wait for its spacing without cancelling a call in flight (a live preview
   * that settles or is cancelled): the edit is then not made and fails, nothing sent.
   */
  stopWaiting?: AbortSignal;
}

/**
 * Send one plan part through the transport, paced and retried, applying the stated
 * fallbacks: a vanished reply target → resend without the reply; a refused voice note →
 * resend as an audio file. When a captioned media message fails without any chance of
 * having been delivered, its caption still goes out as a text message.
 */
export function deliverPart(
  part: SendablePart,
  index: number,
  replyTo: string | undefined,
  context: PartContext,
): Promise<PartResult> {
  if (part.type === "edit") return editPart(part, index, context);
  if (part.type === "delete") return deletePart(part, index, context);
  return newMessage(part, index, replyTo, context);
}

/**
 * Edit the message into the part's text (no call when it already shows it), then send the
 * part's media without caption. The edited message is the part's first receipt entry even
 * when the media fails, as a rescued caption is.
 */
async function editPart(part: EditPart, index: number, context: PartContext): Promise<PartResult> {
  const message: ReceiptMessage = { id: part.messageId, kind: "text", part: index };
  const degraded: Degradation[] = [];
  if (part.applied !== true) {
    const editText = context.transport.editText;
    const { pacer, signal } = context.retry;
    const key = spacingKey(context, part.messageId);
    try {
      if (editText === undefined) throw new UnsupportedFeatureError("edits", "the transport has no editText");
      const spacing = Math.max(context.editIntervalMs ?? 0, part.intervalMs ?? 0);
      const waiting = context.stopWaiting;
      await pacer.spaced(
        key,
        spacing,
        signal === undefined || waiting === undefined
          ? (signal ?? waiting)
          : AbortSignal.any([signal, waiting]),
        part.latest !== undefined,
      );
      const text = part.latest === undefined ? part.text : part.latest();
      if (text === undefined) {
        pacer.looked(key);
        return { messages: [message], degraded };
      }
      const operation = placed<EditOperation>(
        { target: context.target, type: "edit", messageId: part.messageId, text },
        undefined,
        context,
      );
      const sent = await pacedCall(() => editText(operation), retryContext(context, index, false));
      pacer.changed(key);
      if (sent.degraded !== undefined) degraded.push(sent.degraded);
    } catch (raw) {
      context.retry.signal?.throwIfAborted();
      if (context.stopWaiting?.aborted === true && !(raw instanceof OutboxError))
        return { messages: [], degraded, error: notEdited(raw) };
      return { messages: [], degraded, error: toOutboxError(raw) };
    }
  }
  if (part.media === undefined) return { messages: [message], degraded };
  const { caption: _moved, ...media } = part.media;
  const result = await newMessage(media, index, undefined, context);
  return { ...result, messages: [message, ...result.messages], degraded: [...degraded, ...result.degraded] };
}

/** Delete the message: a delivered delete leaves no message. */
async function deletePart(part: DeletePart, index: number, context: PartContext): Promise<PartResult> {
  const deleteMessage = context.transport.deleteMessage;
  const operation = placed<DeleteOperation>(
    { target: context.target, type: "delete", messageId: part.messageId },
    undefined,
    context,
  );
  try {
    if (deleteMessage === undefined)
      throw new UnsupportedFeatureError("delete", "the transport has no deleteMessage");
    await withRetries(() => deleteMessage(operation), retryContext(context, index, false));
    return { messages: [], degraded: [] };
  } catch (raw) {
    context.retry.signal?.throwIfAborted();
    return { messages: [], degraded: [], error: toOutboxError(raw) };
  }
}

async function newMessage(
  part: NewMessagePart,
  index: number,
  replyTo: string | undefined,
  context: PartContext,
): Promise<PartResult> {
  const degraded: Degradation[] = [];
  let reply = replyTo;
  let travelling: TravellingPart;
  try {
    // A text part is ready as it is, without a turn of the microtask queue.
    travelling =
      part.type === "text"
        ? textTravel(part)
        : await prepareTravel(part, { ...context.travel, signal: context.retry.signal });
  } catch (raw) {
    context.retry.signal?.throwIfAborted();
    return { messages: [], degraded, error: hostFailure(raw) };
  }
  let current = travelling.part;
  for (;;) {
    const operation = toOperation(current, reply, context, keyOf(context, index, "part"));
    try {
      const sent = await pacedCall(
        () => call(context.transport, operation),
        retryContext(
          context,
          index,
          undefined,
          operation.type === "text" ? "text" : operation.type === "album" ? "album" : "media",
        ),
      );
      if (sent.degraded !== undefined) degraded.push(sent.degraded);
      // A text outside any send is a live preview's message: its edits are spaced from now.
      if (context.partless === true && operation.type === "text")
        context.retry.pacer.changed(spacingKey(context, sent.id));
      const media = uploadedInstead(travelling.media, sent.uploadedInstead);
      const message: ReceiptMessage = { id: sent.id, kind: kindOf(operation), part: index };
      return { messages: [media === undefined ? message : { ...message, media }], degraded };
    } catch (raw) {
      context.retry.signal?.throwIfAborted();
      const error = toOutboxError(raw);
      if (reply !== undefined && error instanceof TargetNotFoundError && error.missing === "reply") {
        degraded.push({
          from: "reply",
          to: "none",
          reason: `the message replied to (${reply}) no longer exists`,
        });
        reply = undefined;
        continue;
      }
      if (
        current.type === "media" &&
        current.kind === "voice" &&
        error instanceof UnsupportedFeatureError &&
        error.feature === "voice"
      ) {
        degraded.push({
          from: "voice",
          to: "audio",
          reason: `the platform refused the voice note: ${error.message}`,
        });
        current = { ...current, kind: "audio" };
        continue;
      }
      const rescued = await rescueCaption(current, error, reply, index, context);
      if (rescued !== undefined) degraded.push(rescued.degradation);
      return { messages: rescued === undefined ? [] : [rescued.message], degraded, error };
    }
  }
}

async function rescueCaption(
  part: NewMessagePart,
  error: OutboxError,
  replyTo: string | undefined,
  index: number,
  context: PartContext,
): Promise<{ message: ReceiptMessage; degradation: Degradation } | undefined> {
  // An unreachable platform (or a failing store) would only fail the caption through a retry cycle of its own.
  if (part.type === "text" || part.caption === undefined || isAmbiguous(error) || unreachable(error))
    return undefined;
  const operation = toOperation(
    { type: "text", tree: { type: "root", children: [] }, text: part.caption, sources: part.sources },
    replyTo,
    context,
    keyOf(context, index, "caption"),
  );
  try {
    const sent = await pacedCall(() => call(context.transport, operation), retryContext(context, index));
    return {
      message: { id: sent.id, kind: "text", part: index },
      degradation: {
        from: "caption",
        to: "text",
        reason: `the ${part.type} message failed (${error.code}); its caption went as text`,
      },
    };
  } catch {
    return undefined;
  }
}

/** The pacer's key of a message of the target, for the spacing of its edits. */
function spacingKey(context: PartContext, messageId: string): string {
  return `${context.target.to}\u0000${messageId}`;
}

function keyOf(context: PartContext, index: number, role: OperationRole): string | undefined {
  return context.partless === true
    ? undefined
    : operationKey(context.sendKey, context.target.to, index, role);
}

/**
 * The retry context of a call (of `kind`, when the pacer counts it apart): where the platform
 * deduplicates a send by the operation's key, an ambiguous failure is resent like a certain
 * one (the resend cannot duplicate). The gate is told the part, unless the call stands
 * outside any send. One copy of the send's context at most.
 */
function retryContext(
  context: PartContext,
  part: number,
  keyed = context.partless !== true,
  kind?: RetryContext["kind"],
): RetryContext {
  const resend = keyed && context.transport.deduplicatesByKey === true;
  const { retry } = context;
  if (context.partless === true && !resend && kind === undefined) return retry;
  // Every field written out: a spread of the send's context costs a short send about a microsecond.
  // `satisfies` makes a field added to RetryContext a type error here until it is copied.
  return {
    policy: retry.policy,
    clock: retry.clock,
    pacer: retry.pacer,
    to: retry.to,
    signal: retry.signal,
    gate: retry.gate,
    beforeCall: retry.beforeCall,
    resendAmbiguous: resend || retry.resendAmbiguous,
    part: context.partless === true ? retry.part : part,
    kind: kind ?? retry.kind,
    trace: retry.trace,
  } satisfies Record<keyof RetryContext, unknown>;
}

function toOperation(
  part: NewMessagePart,
  replyTo: string | undefined,
  context: PartContext,
  key: string | undefined,
): Operation {
  const { target } = context;
  if (part.type === "text") return placed({ target, type: "text", text: part.text, key }, replyTo, context);
  const operation: Operation =
    part.type === "album"
      ? { target, type: "album", items: part.items, key }
      : {
          target,
          type: "media",
          kind: part.kind,
          media: part.media,
          key,
          ...(part.url === undefined ? {} : { url: part.url }),
        };
  if (part.caption !== undefined) operation.caption = part.caption;
  return placed(operation, replyTo, context);
}

/** The operation with its reply, thread and signal, when there are. */
function placed<T extends OperationBase>(operation: T, replyTo: string | undefined, context: PartContext): T {
  if (replyTo !== undefined) operation.replyTo = replyTo;
  if (context.target.thread !== undefined) operation.thread = context.target.thread;
  if (context.retry.signal !== undefined) operation.signal = context.retry.signal;
  return operation;
}

function call(transport: Transport, operation: Operation): Promise<SentMessage> {
  if (operation.type === "text") return transport.sendText(operation);
  if (operation.type === "media") return transport.sendMedia(operation);
  if (transport.sendAlbum === undefined)
    throw new UnsupportedFeatureError("album", "the transport has no sendAlbum");
  return transport.sendAlbum(operation);
}

function kindOf(operation: Operation): MessageKind {
  if (operation.type === "media") return operation.kind;
  return operation.type;
}

/** Errors a transport throws that are not Outbox errors: treated as possibly delivered. */
function toOutboxError(error: unknown): OutboxError {
  if (error instanceof OutboxError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError(`unexpected transport failure: ${message}`, { ambiguous: true, cause: error });
}

/** An edit whose wait for its spacing was ended: nothing was sent. */
function notEdited(reason: unknown): OutboxError {
  return new TransportError("not attempted: the wait for the edit interval was ended", {
    ambiguous: false,
    cause: reason,
  });
}

/** A media host that failed to take an item: nothing reached the platform. */
function hostFailure(error: unknown): OutboxError {
  if (error instanceof OutboxError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MediaError("fetch-failed", `the media host could not take the item: ${message}`, {
    cause: error,
  });
}
