/**
 * What an agent calling `send_message` should do about a failed part, in terms of what the
 * tool can do. Core's `action` speaks to an integrator (send options, `retry.*`, the media
 * policy, `target.to`); an agent has only the tool's arguments, and a repeat of a call made
 * without `idempotencyKey` sends the delivered parts again, so advice to resend depends on
 * whether the call had one.
 */
import {
  AuthError,
  MediaError,
  PayloadError,
  PlatformError,
  RateLimitedError,
  type ReceiptFailure,
  StoreError,
  TargetNotFoundError,
  TransportError,
  UnsupportedFeatureError,
} from "@outbox/core";

/** The tool's advice for one failure entry; `keyed`: the call had an `idempotencyKey`. */
export function toolAction(failure: ReceiptFailure, keyed: boolean): string {
  const { error } = failure;
  const again = keyed
    ? "call send_message again with the same arguments and idempotencyKey (only what was not delivered is sent again)"
    : "send only this part again (this call had no idempotencyKey, so repeating it whole would send the delivered parts twice; give one next time)";
  if (failure.ambiguous === true)
    return keyed
      ? 'it may have been delivered: look in the chat (or ask the person), then call send_message again with the same arguments and idempotencyKey, and ambiguous "delivered" if it is there or "resend" if it is not'
      : "it may have been delivered: look in the chat (or ask the person) before sending this part again on its own (this call had no idempotencyKey)";
  if (error instanceof RateLimitedError)
    return `the platform asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s: then ${again}`;
  if (error instanceof StoreError)
    return `the server's delivery journal failed, so nothing was sent: ${again}; if it persists, tell the server's operator`;
  if (error instanceof TransportError)
    return `nothing was delivered (the platform was unreachable, or failed a request that posts nothing): ${again}; if it persists, tell the server's operator`;
  if (error instanceof AuthError) return TOOL_AUTH;
  if (error instanceof TargetNotFoundError) return TARGET_ACTIONS[error.missing];
  if (error instanceof MediaError) return MEDIA_ACTIONS[error.reason];
  if (error instanceof UnsupportedFeatureError)
    return (
      FEATURE_ACTIONS[error.feature] ??
      `the platform has no ${error.feature}: send without it, or to a platform that has it`
    );
  if (error instanceof PayloadError) return "fix the arguments as the message says; nothing was sent";
  if (error instanceof PlatformError)
    return `the platform refused this part (${error.status}): change it as the message says; the same part fails again`;
  return "see the message";
}

/** A refused bot: only the operator can change its token or its permissions. */
const TOOL_AUTH =
  "the platform refused the bot (its token, or its permissions in this chat), so nothing was sent: tell the server's operator what the message says; sending again fails the same way";

const TARGET_ACTIONS: Record<TargetNotFoundError["missing"], string> = {
  chat: "check `to`: the chat does not exist, the bot is not in it, or the person has not written to the bot first",
  thread: "check `thread`: the thread or topic does not exist or the bot cannot see it",
  reply: "the message replied to is gone: send without `replyTo`",
  message: "the message is gone: send a new one",
};

/**
 * Refusals that are not the platform lacking a feature, where "the platform has no …" would
 * contradict the message: what the agent can change in its arguments instead.
 */
const FEATURE_ACTIONS: Partial<Record<string, string>> = {
  encryption:
    "the chat is end-to-end encrypted and this server does not encrypt, so nothing was sent: send to another chat, or tell the server's operator",
  media:
    "the platform takes this kind of file in no form, so nothing was sent for it: leave it out of `images` and `files`, or send it to another platform",
  threads: "the platform has no threads, so nothing was sent: call send_message again without `thread`",
  voice: "the file could not go as a voice note here: call send_message again with `voice` false",
  album:
    "the platform could not send these images together: send them in separate calls, or tell the server's operator",
};

const MEDIA_ACTIONS: Record<MediaError["reason"], string> = {
  blocked: "the server refused the file: send it in `images` or `files`",
  "too-large": "the file is over the platform's limit: send a smaller file, or a link to it in the message",
  "not-found": "the file could not be read: send it again in `images` or `files`",
  "fetch-failed":
    "the file could not be fetched: check that its URL answers, or send it in `images` or `files`",
  "unsupported-type": "the platform cannot take this type: convert it, or send it in `files`",
};

/**
 * The tool's advice for a call refused before anything was sent (a tool error): what the
 * agent can change in its arguments, or that only the server's operator can help.
 */
export function refusalAction(error: unknown): string {
  const [issue] = error instanceof PayloadError ? error.issues : [];
  if (issue?.code === "not_configured" || issue?.code === "not_installed")
    return "nothing was sent: tell the server's operator what the message says; calling again fails the same way until they do";
  if (issue?.path[0] === "idempotencyKey")
    return "nothing was sent: a key names one message to one chat, so give this message a new `idempotencyKey` (repeat a key only with the same arguments)";
  if (error instanceof PayloadError || error instanceof MediaError)
    return "nothing was sent: fix the arguments as the message says, then call send_message again";
  if (error instanceof AuthError) return TOOL_AUTH;
  return "nothing was sent: tell the server's operator what the message says";
}

/**
 * Sentences of core's messages that speak to the integrator (a media policy the agent
 * cannot change), each with what the agent can do instead. Core's messages are otherwise
 * passed on as they are: they say what happened.
 */
const INTEGRATOR_SENTENCES: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /; add its directory to MediaPolicy\.localRoots or move the file there\./g,
    ": the server sends only the files given in `images` and `files`.",
  ],
  [
    / Name a file inside MediaPolicy\.localRoots \([^)]*\) or a public https URL\./g,
    " Send the file in `images` or `files`, or name a public https URL.",
  ],
];

/** `text` with core's advice to the integrator replaced by what the agent can do. */
export function inToolTerms(text: string): string {
  return INTEGRATOR_SENTENCES.reduce((out, [sentence, instead]) => out.replace(sentence, instead), text);
}
