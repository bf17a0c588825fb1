/**
 * The Google Chat transport: one message per operation through the Chat API client. A text
 * chunk is a message with `text`; a media item a message with one card and no text; each
 * send carries a `messageId` derived from the operation's key, so a resend after an
 * ambiguous failure is refused `ALREADY_EXISTS` instead of posting twice (the transport
 * declares it deduplicates); a thread goes by name or key with the reply option the config
 * chose. An edit patches `text`, a delete removes the message. It never retries or sleeps.
 */
import { type OperationBase, TargetNotFoundError, type Transport } from "@outbox/core";
import type { ChatClient, ChatMessage, CreateQuery } from "../client/chat.js";
import { cardFor } from "./cards.js";
import { clientMessageId } from "./message-id.js";

/**
 * How long Google is taken to keep a client-assigned id: as long as the message exists,
 * which the app cannot know (a person or a retention policy may delete it); an hour is what
 * an unsure part left in the journal is resent under with the same id.
 */
const MESSAGE_ID_REMEMBERED_MS = 60 * 60 * 1000;

const SPACE = /^spaces\/[A-Za-z0-9_-]+$/;
const THREAD = /^(spaces\/[A-Za-z0-9_-]+)\/threads\/[A-Za-z0-9_.-]+$/;

/** What the transport is told by the config. */
export interface GoogleChatTransportOptions {
  /** Start a new thread when the one named does not exist. */
  threadFallback: boolean;
}

/** The space an operation goes to, refused before any call when it is not a space's name. */
function spaceOf(op: OperationBase): string {
  const space = op.target.to;
  if (!SPACE.test(space))
    throw new TargetNotFoundError(
      `Google Chat: target ${JSON.stringify(space.slice(0, 80))} is not a space's name (spaces/AAAA…, from the space's URL or an event the app received)`,
      "chat",
    );
  return space;
}

/** Build the transport over a Chat API client. */
export function createGoogleChatTransport(
  client: ChatClient,
  options: GoogleChatTransportOptions,
): Transport {
  const create = (op: OperationBase, message: ChatMessage) => {
    const space = spaceOf(op);
    const query: CreateQuery = op.key === undefined ? {} : { messageId: clientMessageId(op.key) };
    if (op.thread !== undefined) {
      const named = THREAD.exec(op.thread);
      if (named !== null && named[1] !== space)
        throw new TargetNotFoundError(`Google Chat: thread ${op.thread} is not in space ${space}`, "thread");
      message.thread = named !== null ? { name: op.thread } : { threadKey: op.thread };
      query.messageReplyOption = options.threadFallback
        ? "REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD"
        : "REPLY_MESSAGE_OR_FAIL";
    }
    return client.create(space, message, query, op.signal);
  };
  return {
    sendText: async (op) => ({ id: await create(op, { text: op.text.text }) }),
    sendMedia: async (op) => ({ id: await create(op, { cardsV2: [cardFor(op)] }) }),
    editText: async (op) => {
      spaceOf(op);
      await client.patch(op.messageId, { text: op.text.text }, "text", op.signal);
      return { id: op.messageId };
    },
    deleteMessage: (op) => client.remove(op.messageId, op.signal),
    close: () => client.close(),
    deduplicatesByKey: true,
    deduplicatesForMs: MESSAGE_ID_REMEMBERED_MS,
  };
}
