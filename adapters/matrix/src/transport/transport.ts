/**
 * The Matrix transport: every message is one `PUT /rooms/{roomId}/send/m.room.message/{txnId}`
 * (media uploaded to the content repository first), edits are `m.replace` events and deletes
 * redactions. Errors mapped onto core's classes; it never retries or sleeps: the engine does,
 * resending under the same txnId.
 */
import type {
  DeleteOperation,
  EditOperation,
  MediaOperation,
  OperationBase,
  SentMessage,
  TextOperation,
  Transport,
} from "@outbox/core";
import type { MatrixClient } from "../client/matrix-client.js";
import { type Content, editContent, mediaContent, textContent } from "./content.js";
import { toOutboxError } from "./errors.js";
import { Relations } from "./relations.js";
import { RoomResolver } from "./rooms.js";
import { txnIdOf } from "./txn-id.js";
import { uploadOnce } from "./upload.js";
import { voiceContent } from "./voice.js";

/** Options of {@link createMatrixTransport}. */
export interface MatrixTransportOptions {
  /** Send text as `m.notice` instead of `m.text`. Default `false`. */
  notice?: boolean;
  /** Leave out `m.mentions`, so the legacy push rules read mentions from the text. Default `false`: `m.mentions: {}` on every event. */
  mentions?: boolean;
  /** Send plaintext into end-to-end encrypted rooms. Default `false`: refused. */
  allowUnencryptedInEncryptedRooms?: boolean;
}

/** Build the transport over a client. */
export function createMatrixTransport(client: MatrixClient, options: MatrixTransportOptions = {}): Transport {
  const rooms = new RoomResolver(client, options.allowUnencryptedInEncryptedRooms ?? false);
  const relations = new Relations(client);
  const msgtype = options.notice ? "m.notice" : "m.text";
  // An event with `m.mentions` is judged by it alone (an empty one pings nobody); without it,
  // `@room` and any user ID in the body notify (the spec's legacy push rules).
  const inert: Content = options.mentions ? {} : { "m.mentions": {} };

  /** Send one `m.room.message` for an operation, with its relation, under the operation's txnId. */
  const send = async (op: OperationBase, room: string, content: Content): Promise<SentMessage> => {
    const relation = await relations.of(op, room);
    const event = { ...content, ...inert, ...(relation ? { "m.relates_to": relation } : {}) };
    let id: string;
    try {
      id = await client.sendEvent(room, "m.room.message", txnIdOf(op), event, op.signal);
    } catch (error) {
      throw toOutboxError(error, { route: `PUT /rooms/${room}/send/m.room.message`, room });
    }
    relations.sent(id, op.thread);
    return { id };
  };

  return {
    // Every send carries its operation's key as the txnId: the homeserver answers a resend with the event it stored.
    deduplicatesByKey: true,
    async sendText(op: TextOperation) {
      const room = await rooms.roomOf(op);
      return send(op, room, textContent(op.text, msgtype));
    },
    async sendMedia(op: MediaOperation) {
      const room = await rooms.roomOf(op);
      const mxc = await uploadOnce(client, op, room);
      const content = mediaContent(op, mxc);
      return send(op, room, op.kind === "voice" ? await voiceContent(op, content) : content);
    },
    async editText(op: EditOperation) {
      const room = await rooms.roomOf(op);
      const content = {
        ...editContent(op.messageId, { ...textContent(op.text, msgtype), ...inert }),
        ...inert,
      };
      try {
        await client.sendEvent(room, "m.room.message", txnIdOf(op), content, op.signal);
      } catch (error) {
        throw toOutboxError(error, { route: `PUT /rooms/${room}/send/m.room.message`, room, message: true });
      }
      return { id: op.messageId };
    },
    async deleteMessage(op: DeleteOperation) {
      const room = await rooms.roomOf(op);
      try {
        await client.redact(room, op.messageId, txnIdOf(op), undefined, op.signal);
      } catch (error) {
        throw toOutboxError(error, { route: `PUT /rooms/${room}/redact`, room, message: true });
      }
    },
    close: () => client.close(),
  };
}
