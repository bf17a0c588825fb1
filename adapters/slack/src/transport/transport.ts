/**
 * The Slack transport: one Web API flow per operation, errors mapped onto core's classes.
 * It never retries or sleeps on failure: the engine does.
 */
import type { Transport } from "@outbox/core";
import type { SlackClient } from "./client.js";
import { Conversations } from "./conversation.js";
import { deleteMessage, editText } from "./edit-text.js";
import { sendAlbum, sendMedia } from "./send-files.js";
import { sendText } from "./send-text.js";

/** Options of {@link createSlackTransport}. */
export interface SlackTransportOptions {
  /** Let Slack unfurl links and media in text messages. */
  unfurl: boolean;
}

/** Build the transport over a sending client (see `createSlackClient`). */
export function createSlackTransport(client: SlackClient, options: SlackTransportOptions): Transport {
  const conversations = new Conversations(client.web);
  return {
    sendText: (op) => sendText(client.web, conversations, op, options.unfurl),
    sendMedia: (op) => sendMedia(client, conversations, op),
    sendAlbum: (op) => sendAlbum(client, conversations, op),
    editText: (op) => editText(client.web, conversations, op),
    deleteMessage: (op) => deleteMessage(client.web, conversations, op),
  };
}
