/**
 * Live-preview operations: `chat.update` (the new mrkdwn text replaces the old) and
 * `chat.delete`. Slack accepts an update that changes nothing, so there is no "not
 * modified" refusal to absorb here.
 */
import type { DeleteOperation, EditOperation, SentMessage } from "@outbox/core";
import type { WebClient } from "@slack/web-api";
import type { Conversations } from "./conversation.js";
import { toOutboxError } from "./errors.js";

/** Replace the text of a message the app posted. */
export async function editText(
  web: WebClient,
  conversations: Conversations,
  op: EditOperation,
): Promise<SentMessage> {
  const { channel } = await conversations.place(op);
  try {
    // `parse: "none"` keeps the text as chat.postMessage reads it (chat.update defaults to "client").
    await web.chat.update({ channel, ts: op.messageId, text: op.text.text, parse: "none" });
    return { id: op.messageId };
  } catch (error) {
    throw toOutboxError(error, "chat.update");
  }
}

/** Delete a message the app posted. */
export async function deleteMessage(
  web: WebClient,
  conversations: Conversations,
  op: DeleteOperation,
): Promise<void> {
  const { channel } = await conversations.place(op);
  try {
    await web.chat.delete({ channel, ts: op.messageId });
  } catch (error) {
    throw toOutboxError(error, "chat.delete");
  }
}
