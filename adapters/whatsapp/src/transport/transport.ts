/**
 * The WhatsApp transport: one Cloud API flow per operation, errors mapped onto core's
 * classes. No albums (each item is its own message), no edits. It never retries or sleeps.
 */
import type { Transport } from "@outbox/core";
import type { GraphClient } from "./graph-client.js";
import { type SendOptions, sendMedia, sendText } from "./send.js";

/** Build the transport over a Graph client (see `createGraphClient`). */
export function createWhatsAppTransport(client: GraphClient, options: SendOptions): Transport {
  return {
    sendText: (op) => sendText(client, op, options),
    sendMedia: (op) => sendMedia(client, op),
    close: () => client.close(),
  };
}
