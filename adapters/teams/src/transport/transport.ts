/**
 * The Teams transport: one activity per operation through the connector client. A text chunk
 * is a message activity with `textFormat: "xml"`; a media item is a message activity holding
 * one attachment and no text (Teams may show text and attachments of one activity as two
 * messages under one id, so they never share one); an edit replaces the activity, a delete
 * removes it. It never retries or sleeps.
 */
import type { Transport } from "@outbox/core";
import type { ConnectorClient } from "../client/connector.js";
import { attachmentFor } from "./media.js";

/** Build the transport over a connector client. */
export function createTeamsTransport(client: ConnectorClient): Transport {
  return {
    sendText: async (op) => ({
      id: await client.send(
        op.target.to,
        op.thread,
        { type: "message", textFormat: "xml", text: op.text.text },
        op.signal,
      ),
    }),
    sendMedia: async (op) => {
      const attachment = await attachmentFor(op);
      return {
        id: await client.send(
          op.target.to,
          op.thread,
          { type: "message", attachments: [attachment] },
          op.signal,
        ),
      };
    },
    editText: async (op) => {
      await client.update(
        op.target.to,
        op.messageId,
        { type: "message", id: op.messageId, textFormat: "xml", text: op.text.text },
        op.signal,
      );
      return { id: op.messageId };
    },
    deleteMessage: (op) => client.remove(op.target.to, op.messageId, op.signal),
    close: () => client.close(),
  };
}
