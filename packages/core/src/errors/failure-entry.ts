/**
 * A receipt's failure entry: which part failed (redacted), whether it may have been
 * delivered, whether resending it is safe, and what to do (docs/delivery.md, "Failures").
 */
import type { ReceiptFailure } from "../adapter/types.js";
import { isAmbiguous, isInvisibleFailure } from "../engine/retry.js";
import { MEDIA_HOST_FEATURE } from "../plan/travel.js";
import type { PlanPart } from "../plan/types.js";
import {
  AgentRunError,
  AuthError,
  MediaError,
  type OutboxError,
  PayloadError,
  PlatformError,
  RateLimitedError,
  StoreError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "./errors.js";
import { redactError, redactSecrets } from "./redact.js";

/** Longest text excerpt a failure entry quotes. */
const EXCERPT = 60;

/** What a part holds, for a person reading the receipt: a text excerpt or the media it carries. */
export function describePart(part: PlanPart | undefined, error?: OutboxError): string | undefined {
  if (part === undefined) return error instanceof MediaError && error.ref ? `media ${error.ref}` : undefined;
  if (part.type === "text") return `text "${excerpt(part.text.plain)}"`;
  if (part.type === "media") return `${part.kind} ${mediaName(part.media)}`;
  if (part.type === "album") return `album of ${part.items.map((item) => mediaName(item.media)).join(", ")}`;
  return describePart(undefined, part.error);
}

/** A short excerpt of `text`, whitespace collapsed. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= EXCERPT ? flat : `${flat.slice(0, EXCERPT - 1)}…`;
}

function mediaName(media: {
  fileName: string;
  source: { type: string; url?: string; path?: string };
}): string {
  const from = media.source.url ?? media.source.path;
  return from === undefined || from.endsWith(media.fileName)
    ? (from ?? media.fileName)
    : `${media.fileName} (${from})`;
}

/**
 * The failure entry of `part` failing with `error`: the error and the description redacted
 * (known token shapes, URL queries, the adapter's `secrets`), plus `ambiguous`, `retryable`
 * and `action`.
 */
export function failureEntry(
  part: number,
  error: OutboxError,
  content: string | undefined,
  secrets: readonly string[] = [],
): ReceiptFailure {
  const ambiguous = isAmbiguous(error);
  return {
    part,
    error: redactError(error, secrets),
    ...(content === undefined ? {} : { content: redactSecrets(content, secrets) }),
    ambiguous,
    retryable: !ambiguous && mayPass(error),
    action: redactSecrets(actionFor(error, ambiguous), secrets),
  };
}

/** Whether the failure can pass on its own (a resend of a part certainly not delivered may then succeed). */
function mayPass(error: OutboxError): boolean {
  return (
    error instanceof RateLimitedError ||
    error instanceof TransportError ||
    error instanceof StoreError ||
    (error instanceof MediaError && error.reason === "fetch-failed")
  );
}

const RESEND = "resend with the same idempotencyKey (only what did not go is sent again)";

/** What to do about `error`, in words (every error class has an answer). */
export function actionFor(error: OutboxError, ambiguous: boolean): string {
  if (ambiguous)
    return `it may have been delivered (${error instanceof PlatformError ? `the platform answered ${error.status}` : "the request may have reached the platform, and no answer confirmed it"}): look in the chat, then send again with the same idempotencyKey and ambiguous "delivered" if it is there or "resend" if it is not (a plain repeat reports it again; docs/delivery.md, "Parts whose outcome is unknown")`;
  if (error instanceof RateLimitedError)
    return `the platform asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s: ${RESEND} after that (to wait within the send, raise retry.maxRetries, and retry.maxRetryWaitMs when the wait is over it)`;
  if (error instanceof StoreError)
    return `Outbox's own store failed (the delivery journal, or the queue's shared rate limit in Redis), so nothing was sent and the platform is not at fault: check the store (Redis, the disk), then ${RESEND}`;
  if (isInvisibleFailure(error))
    return `the platform failed a request that posts nothing visible (an upload), so nothing was delivered: ${RESEND}`;
  if (error instanceof TransportError)
    return `the platform could not be reached (nothing was sent): check the API URL, the network or the proxy, then ${RESEND}`;
  if (error instanceof AuthError)
    return "the platform refused the bot (nothing was sent): fix its token, scopes or permissions in this chat as the message says, then resend";
  if (error instanceof TargetNotFoundError) return TARGET_ACTIONS[error.missing];
  if (error instanceof MediaError) return MEDIA_ACTIONS[error.reason];
  if (error instanceof UnsupportedFeatureError)
    return (
      FEATURE_ACTIONS[error.feature] ??
      `the platform has no ${error.feature}: leave it out of the payload or send to a platform that has it`
    );
  if (error instanceof PayloadError)
    return "fix the input as the message says; nothing was sent (see error.issues for every field)";
  if (error instanceof AgentRunError)
    return error.reason === "aborted"
      ? "the run was aborted: what was not delivered is in error.undelivered"
      : "the agent failed: what it wrote after the last delivered block is in error.undelivered; rerun the agent (the same idempotencyKey skips what went)";
  if (error instanceof PlatformError)
    return `the platform refused the request (${error.status}): fix what its description says; sending the same part again fails again`;
  return "see the error's message and cause";
}

const TARGET_ACTIONS: Record<TargetNotFoundError["missing"], string> = {
  chat: "check target.to, and that the bot is a member of the chat (or that the user wrote to it first)",
  thread: "check target.thread: the thread or topic does not exist or the bot cannot see it",
  reply: "the message replied to is gone: send without replyToId",
  message: "the message to edit or delete is gone: send a new one",
};

/**
 * Features whose refusal is not the platform lacking them, where the generic answer ("the
 * platform has no …") would contradict the message.
 */
const FEATURE_ACTIONS: Partial<Record<string, string>> = {
  encryption:
    "the chat is end-to-end encrypted and Outbox does not encrypt (nothing was sent): send to an unencrypted chat, or opt in to plaintext as the message says",
  media:
    "the platform takes this kind of file in no form, not even as a document (nothing was sent for it): leave it out of the payload or send to a platform that takes it",
  threads: "the platform has no threads (nothing was sent): send without target.thread",
  [MEDIA_HOST_FEATURE]:
    "the platform takes this file only as a link it fetches or a link in the text, and no media host is configured (nothing was sent for it): set media.host in the adapter's media options (createSelfHostedMedia from @outbox/core, or createS3MediaHost from @outbox/media-s3; docs/media.md), then resend with the same idempotencyKey",
  voice:
    "the file could not go as a voice note here, as the message says: send it without audioAsVoice (as an audio file)",
  album:
    "the adapter declares albums but its transport cannot send one: declare album: null in its capabilities",
};

const MEDIA_ACTIONS: Record<MediaError["reason"], string> = {
  blocked:
    "the media policy refused the reference: allow its root (media.localRoots) or host in the adapter's media policy, or send another file",
  "too-large": "the file is over the platform's upload limit: send a smaller file or a link to it",
  "not-found": "the file does not exist: check the path or URL",
  "fetch-failed": `the file could not be fetched: check that the URL answers, then ${RESEND}`,
  "unsupported-type": "the file's type cannot be sent: convert it, or send it as a document",
};

/**
 * Whether `error` stops the rest of a delivery: the platform proved unreachable (a network
 * failure that proves nothing was sent: connection refused, no route, DNS) or Outbox's store
 * failed ({@link StoreError}), after its retries. The rest then fails at once
 * instead of running each part's own retry cycle.
 */
export function unreachable(error: unknown): boolean {
  if (error instanceof StoreError) return true;
  return error instanceof TransportError && !error.ambiguous && !isInvisibleFailure(error);
}

/**
 * The failure of a part not attempted because an earlier one proved the platform unreachable
 * or the store failing (`cause`): a {@link StoreError} for the store, so its entry says so.
 */
export function notAttempted(cause: OutboxError): TransportError | StoreError {
  const why =
    cause instanceof StoreError
      ? `Outbox's store failed (${cause.message})`
      : `the platform was unreachable (${cause.message})`;
  const message = `not attempted: ${why}; the rest of the delivery stopped at once`;
  return cause instanceof StoreError
    ? new StoreError(message, { cause })
    : new TransportError(message, { ambiguous: false, cause });
}
