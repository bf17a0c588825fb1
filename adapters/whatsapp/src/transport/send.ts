/**
 * Operations → Cloud API messages: a text chunk is one `text` message; a media item is
 * uploaded to `/media` (streamed) and sent by its id as an `image`, `video`, `audio` (a voice
 * note with `voice: true`) or `document` message, with its caption where WhatsApp takes one.
 * A reply carries `context.message_id`. The receipt id is the `wamid.` WhatsApp answers.
 */
import { type MediaOperation, type SentMessage, type TextOperation, TransportError } from "@outbox/core";
import type { GraphBody, GraphClient } from "./graph-client.js";

/** Voice notes above this size show as an audio file, without the voice note's play icon. */
export const VOICE_NOTE_ICON_MAX = 512 * 1024;

/** Options of the sending functions. */
export interface SendOptions {
  /** `preview_url` of text messages. */
  previewUrl: boolean;
}

/** Send one rendered chunk as a text message. */
export function sendText(client: GraphClient, op: TextOperation, options: SendOptions): Promise<SentMessage> {
  return send(client, op, "text", { body: op.text.text, preview_url: options.previewUrl });
}

/** Upload one item, then send it by its media id. */
export async function sendMedia(client: GraphClient, op: MediaOperation): Promise<SentMessage> {
  const { media, kind } = op;
  let id: string;
  try {
    id = await client.upload(media, media.mimeType, op.signal);
  } catch (error) {
    // Nothing reaches the person before the message itself: an upload that may have arrived
    // leaves at most an unused media id, so it is safe to send again.
    if (error instanceof TransportError && error.ambiguous)
      throw new TransportError(
        `${error.message}; the upload sends nothing to the person, so it is safe to retry`,
        {
          ambiguous: false,
          cause: error,
        },
      );
    throw error;
  }
  const type = kind === "voice" ? "audio" : kind;
  const object: GraphBody = { id };
  if (kind === "voice") object.voice = true;
  if (kind === "document") object.filename = media.fileName;
  if (op.caption !== undefined && op.caption.text !== "" && type !== "audio")
    object.caption = op.caption.text;
  const sent = await send(client, op, type, object);
  if (kind === "voice" && media.size > VOICE_NOTE_ICON_MAX)
    return {
      ...sent,
      degraded: {
        from: "voice note",
        to: "audio file",
        reason: `WhatsApp shows a voice note over 512 KB (this one is ${media.size} bytes) as an audio file without the voice note's play icon`,
      },
    };
  return sent;
}

async function send(
  client: GraphClient,
  op: TextOperation | MediaOperation,
  type: string,
  object: GraphBody,
): Promise<SentMessage> {
  const answer = await client.post(
    "messages",
    {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: op.target.to,
      type,
      [type]: object,
      ...(op.replyTo === undefined ? {} : { context: { message_id: op.replyTo } }),
    },
    op.signal,
  );
  const id = (answer.messages as Array<{ id?: unknown }> | undefined)?.[0]?.id;
  if (typeof id !== "string")
    throw new TransportError("WhatsApp POST /messages: the answer holds no message id", { ambiguous: true });
  return { id };
}
