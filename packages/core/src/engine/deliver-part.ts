import type { MessageKind, Operation, ReceiptMessage, SentMessage, Transport } from "../adapter/types.js";
import {
  MediaError,
  OutboxError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "../errors/errors.js";
import { unreachable } from "../errors/failure-entry.js";
import type { Target } from "../payload/types.js";
import type { AlbumPart, Degradation, MediaPart, TextPart } from "../plan/types.js";
import { prepareTravel, type TravelContext, type TravellingPart, uploadedInstead } from "./media-travel.js";
import { type OperationRole, operationKey } from "./operation-key.js";
import { pacedCall } from "./paced-call.js";
import { isAmbiguous, type RetryContext } from "./retry.js";

/** A part that goes to the platform. */
export type SendablePart = TextPart | MediaPart | AlbumPart;

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
  /** Seed of every operation's `key`: the send's `idempotencyKey`, or a random id per send. */
  sendKey: string;
  /** The media host and renderer, for items that travel as a hosted link. */
  travel?: TravelContext;
}

/**
 * Send one plan part through the transport, paced and retried, applying the stated
 * fallbacks: a vanished reply target → resend without the reply; a refused voice note →
 * resend as an audio file. When a captioned media message fails without any chance of
 * having been delivered, its caption still goes out as a text message.
 */
export async function deliverPart(
  part: SendablePart,
  index: number,
  replyTo: string | undefined,
  context: PartContext,
): Promise<PartResult> {
  const degraded: Degradation[] = [];
  let reply = replyTo;
  let travelling: TravellingPart;
  try {
    travelling = await prepareTravel(part, { ...context.travel, signal: context.retry.signal });
  } catch (raw) {
    context.retry.signal?.throwIfAborted();
    return { messages: [], degraded, error: hostFailure(raw) };
  }
  let current = travelling.part;
  for (;;) {
    const operation = toOperation(current, reply, context, keyOf(context, index, "part"));
    try {
      const sent = await pacedCall(() => call(context.transport, operation), {
        ...retryContext(context, index),
        kind: operation.type === "text" ? "text" : operation.type === "album" ? "album" : "media",
      });
      if (sent.degraded !== undefined) degraded.push(sent.degraded);
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
  part: SendablePart,
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

function keyOf(context: PartContext, index: number, role: OperationRole): string {
  return operationKey(context.sendKey, context.target.to, index, role);
}

/**
 * The retry context of a send: where the platform deduplicates by the operation's key, an
 * ambiguous failure is resent like a certain one (the resend cannot duplicate). The gate is
 * told the part.
 */
function retryContext(context: PartContext, part: number): RetryContext {
  return context.transport.deduplicatesByKey === true
    ? { ...context.retry, part, resendAmbiguous: true }
    : { ...context.retry, part };
}

function toOperation(
  part: SendablePart,
  replyTo: string | undefined,
  context: PartContext,
  key: string,
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
function placed(operation: Operation, replyTo: string | undefined, context: PartContext): Operation {
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

/** A media host that failed to take an item: nothing reached the platform. */
function hostFailure(error: unknown): OutboxError {
  if (error instanceof OutboxError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MediaError("fetch-failed", `the media host could not take the item: ${message}`, {
    cause: error,
  });
}
