/**
 * The Telegram transport: one grammY call per operation, errors mapped onto core's
 * classes. It never retries or sleeps: the engine does (and grammY's auto-retry must not
 * be installed on the `Api` handed in).
 */
import { type Capabilities, type SentMessage, type Transport, TransportError } from "@outbox/core";
import type { Api } from "grammy";
import { deleteMessage, editText } from "./edit-text.js";
import { isStaleSocket } from "./keep-alive.js";
import { sendAlbum } from "./send-album.js";
import { sendMedia } from "./send-media.js";
import { sendText } from "./send-text.js";

/** Options of {@link createTelegramTransport}. */
export interface TelegramTransportOptions {
  /** What the adapter declares (the `byUrl` limits decide when Telegram fetches URLs itself). */
  capabilities: Capabilities;
  /** Show link previews under text messages. */
  linkPreview: boolean;
}

/** Build the transport over a grammY `Api`. */
export function createTelegramTransport(api: Api, options: TelegramTransportOptions): Transport {
  return {
    sendText: (op) => retrySafe(sendText(api, op, options.linkPreview)),
    sendMedia: (op) => retrySafe(sendMedia(api, op, options.capabilities)),
    sendAlbum: (op) => retrySafe(sendAlbum(api, op, options.capabilities)),
    editText: (op) => retrySafe(editText(api, op, options.linkPreview)),
    deleteMessage: async (op) => {
      await retrySafe(deleteMessage(api, op).then(() => ({ id: op.messageId })));
    },
  };
}

/**
 * A reset on a reused keep-alive socket before any answer byte (marked by the adapter's
 * agent) means the server had closed the idle socket and processed nothing: it is reported
 * as not ambiguous, so the engine retries it.
 */
async function retrySafe(sent: Promise<SentMessage>): Promise<SentMessage> {
  try {
    return await sent;
  } catch (error) {
    if (error instanceof TransportError && error.ambiguous && isStaleSocket(error))
      throw new TransportError(
        `${error.message} (a reused keep-alive connection was closed by the server before any answer; safe to retry)`,
        { ambiguous: false, cause: error },
      );
    throw error;
  }
}
