/**
 * The Telegram transport: one grammY call per operation, errors mapped onto core's
 * classes. It never retries or sleeps: the engine does (and grammY's auto-retry must not
 * be installed on the `Api` handed in).
 */
import type { Capabilities, Transport } from "@outbox/core";
import type { Api } from "grammy";
import { deleteMessage, editText } from "./edit-text.js";
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
    sendText: (op) => sendText(api, op, options.linkPreview),
    sendMedia: (op) => sendMedia(api, op, options.capabilities),
    sendAlbum: (op) => sendAlbum(api, op, options.capabilities),
    editText: (op) => editText(api, op, options.linkPreview),
    deleteMessage: (op) => deleteMessage(api, op),
  };
}
