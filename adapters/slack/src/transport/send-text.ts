/**
 * One text chunk → `chat.postMessage` with mrkdwn, in the thread when there is one.
 */
import type { SentMessage, TextOperation } from "@outbox/core";
import type { WebClient } from "@slack/web-api";
import type { Conversations } from "./conversation.js";
import { toOutboxError } from "./errors.js";

/** Post one rendered chunk; resolves the message `ts`. */
export async function sendText(
  web: WebClient,
  conversations: Conversations,
  op: TextOperation,
  unfurl: boolean,
): Promise<SentMessage> {
  const place = await conversations.place(op);
  try {
    const res = await web.chat.postMessage({
      channel: place.channel,
      text: op.text.text,
      mrkdwn: true,
      unfurl_links: unfurl,
      unfurl_media: unfurl,
      ...(place.threadTs === undefined ? {} : { thread_ts: place.threadTs }),
    });
    if (!res.ts) throw new Error("chat.postMessage returned no ts");
    return { id: res.ts };
  } catch (error) {
    throw toOutboxError(error, "chat.postMessage", place.role);
  }
}
