/**
 * How connector failures read (core's `jsonApiFailure` maps them): the connector answers an
 * error as `{ error: { code, message } }` (Bot Framework REST API, "Error"). The identity
 * platform's `{ error, error_description }` with its `AADSTS…` code is read by core's
 * `oauthToken`.
 */
import { type JsonApiErrors, TargetNotFoundError, TransportError } from "@outbox/core";

/** A call the transport makes, named as the emulator's fault targets name it. */
export type ConnectorMethod = "token" | "sendToConversation" | "updateActivity" | "deleteActivity";

/** How the connector answers an error, and what each code asks to do. */
export const CONNECTOR_ERRORS: JsonApiErrors = {
  platform: "Teams",
  codeField: "code",
  hints: {
    BotNotInConversationRoster:
      "the bot is not a member of this conversation: install the app in the team or chat, or let the person message the bot first",
    ConversationBlockedByUser: "the person blocked the bot",
    MessageSizeTooBig: "the activity is over Teams' size limit",
    Unauthorized: "the token was refused: check the app id, secret and tenant (docs/adapters/teams.md)",
  },
  rateLimitWaitMs: 1000,
  messageCalls: ["updateActivity", "deleteActivity"] satisfies ConnectorMethod[],
  refine: (status, code, message) => {
    if (status === 403 && code === "BotNotInConversationRoster")
      return new TargetNotFoundError(message, "chat");
    // Microsoft asks bots to retry 412 like a 5xx: the write may or may not have happened.
    if (status === 412) return new TransportError(message, { ambiguous: true });
    return undefined;
  },
};
