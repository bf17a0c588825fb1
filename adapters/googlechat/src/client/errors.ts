/**
 * How Chat API and token-endpoint failures read (core's `jsonApiFailure` and `oauthToken`
 * map them): the Chat API answers an error as `{ error: { code, message, status } }`
 * (google.rpc.Status, "Errors" in Google's API design guide), whose `status` names the code;
 * the token endpoint as `{ error, error_description }` (OAuth 2.0).
 */
import type { JsonApiErrors } from "@outbox/core";

/** A call the transport makes, named as the emulator's fault targets name it. */
export type ChatMethod =
  | "token"
  | "spaces.messages.create"
  | "spaces.messages.patch"
  | "spaces.messages.delete";

/** What the failed call was about, for the error's wording and class. */
export interface FailedCall {
  /** The call. */
  method: ChatMethod;
  /** The message went to a thread. */
  thread?: boolean;
}

/**
 * Wait before the first retry of a 429 that names none: Google asks for exponential backoff
 * from about a second ("Usage limits"); core's retry doubles from there.
 */
export const RESOURCE_EXHAUSTED_WAIT_MS = 1000;

/** How the Chat API answers an error (google.rpc.Status), and what each status asks to do. */
export const CHAT_API_ERRORS: JsonApiErrors = {
  platform: "Google Chat",
  codeField: "status",
  hints: {
    PERMISSION_DENIED:
      "the Chat app is not a member of this space, or the Chat API is not configured for it: add the app to the space (docs/adapters/googlechat.md)",
    UNAUTHENTICATED: "the token was refused: check the service account key and the chat.bot scope",
    NOT_FOUND: "no such space, thread or message for this app",
    RESOURCE_EXHAUSTED: "over the space's write quota (60 a minute)",
    INVALID_ARGUMENT: "the message was refused as written",
  },
  rateLimitWaitMs: RESOURCE_EXHAUSTED_WAIT_MS,
  messageCalls: ["spaces.messages.patch", "spaces.messages.delete"] satisfies ChatMethod[],
};
