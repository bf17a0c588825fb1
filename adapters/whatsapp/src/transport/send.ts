/**
 * Operations → Cloud API messages: a text chunk is one `text` message; a media item is
 * uploaded to `/media` (streamed) and sent by its id, or, given a URL by the plan (its own
 * with `media.passThrough`, or a media host's link), sent by that `link`, as an `image`,
 * `video`, `audio` (a voice note with `voice: true`) or `document` message, with its caption
 * where WhatsApp takes one.
 * A reply carries `context.message_id`. The receipt id is the `wamid.` WhatsApp answers.
 */
import {
  invisibleFailure,
  type MediaOperation,
  OutboxError,
  type SentMessage,
  type TextOperation,
  TransportError,
} from "@outbox/core";
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

/**
 * Send one item by `link` when the plan gave it a URL (core's loader checked an item's own
 * URL against the media policy, and hands over the canonical form it checked); otherwise
 * upload it, then send it by its media id.
 */
export async function sendMedia(client: GraphClient, op: MediaOperation): Promise<SentMessage> {
  const { media, kind } = op;
  const object: GraphBody = op.url === undefined ? { id: await upload(client, op) } : { link: op.url };
  const type = kind === "voice" ? "audio" : kind;
  if (kind === "voice") object.voice = true;
  if (kind === "document") object.filename = media.fileName;
  if (op.caption !== undefined && op.caption.text !== "" && type !== "audio")
    object.caption = op.caption.text;
  const sent = await send(client, op, type, object);
  if (kind === "voice" && media.size > VOICE_NOTE_ICON_MAX)
    return {
      ...sent,
      degraded: {
        from: "voice",
        to: "audio",
        reason: `WhatsApp shows a voice note over 512 KB (this one is ${media.size} bytes) as an audio file without the voice note's play icon`,
      },
    };
  return sent;
}

/** Upload the item to `/media`; resolves its media id. */
async function upload(client: GraphClient, op: MediaOperation): Promise<string> {
  try {
    return await client.upload(op.media, op.media.mimeType, op.signal);
  } catch (error) {
    // Nothing reaches the person before the message itself: an upload that may have arrived
    // leaves at most an unused media id, so it is safe to send again.
    throw error instanceof OutboxError ? invisibleFailure(error) : error;
  }
}

async function send(
  client: GraphClient,
  op: TextOperation | MediaOperation,
  type: string,
  object: GraphBody,
): Promise<SentMessage> {
  const message: GraphBody = {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: op.target.to,
    type,
    [type]: object,
  };
  if (op.replyTo !== undefined) message.context = { message_id: op.replyTo };
  const answer = await client.post("messages", message, op.signal);
  const id = (answer.messages as Array<{ id?: unknown }> | undefined)?.[0]?.id;
  if (typeof id !== "string")
    throw new TransportError("WhatsApp POST /messages: the answer holds no message id", { ambiguous: true });
  return { id };
}
