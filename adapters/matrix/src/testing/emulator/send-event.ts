/**
 * `PUT /rooms/{roomId}/send/m.room.message/{txnId}` and `PUT /rooms/{roomId}/redact/…` as
 * the emulated homeserver answers them: a txnId already used by this access token answers
 * the event it made (no second event, whatever the body now says: Synapse's behaviour); the
 * content checked (message.ts); relations as Synapse takes them: a reply (`m.in_reply_to`)
 * or thread (`m.thread`) naming an event the server does not hold is stored anyway (Synapse
 * cannot tell an event it has not received over federation from one that never existed;
 * Element then shows "Unable to load event"), an edit (`m.replace`) must name a message of
 * the same sender and room (the spec tells clients to ignore any other; strict here: refused);
 * the whole event within 65,536 bytes (413 `M_TOO_LARGE`).
 */
import type { ObservedMessage } from "@outbox/core";
import { mergeMentions } from "@outbox/core/testing";
import { badJson, MatrixApiError } from "./api-error.js";
import type { MediaRepository } from "./media.js";
import { mentionsOf } from "./mentions.js";
import { readMessage } from "./message.js";
import type { MatrixStore, StoredEvent } from "./store.js";
import { BOT_USER } from "./types.js";

/** The homeserver's limit on one event, canonical JSON (spec: "Size limits"). */
export const MAX_EVENT_BYTES = 65_536;

/** Send a message event; returns its event id (the earlier one for a repeated txnId). */
export function sendMessage(
  store: MatrixStore,
  media: MediaRepository,
  scope: string,
  roomId: string,
  txnId: string,
  content: Record<string, unknown>,
): string {
  store.joinedRoom(roomId);
  const earlier = store.transaction(scope, txnId);
  if (earlier !== undefined) return earlier;
  const relation = content["m.relates_to"] as Record<string, unknown> | undefined;
  if (relation !== undefined && (typeof relation !== "object" || relation === null))
    throw badJson("m.relates_to must be an object");
  const eventId = store.newEventId();
  checkSize(roomId, eventId, content);
  const event: StoredEvent = { eventId, roomId, type: "m.room.message", sender: BOT_USER, content };
  if (relation?.rel_type === "m.replace") applyEdit(store, media, roomId, relation, content);
  else {
    const mentions = mentionsOf(content);
    event.observed = {
      ...readMessage(content, media),
      ...(mentions ? { mentions } : {}),
      ...placement(store, roomId, relation),
    };
  }
  store.add(event);
  store.recordTransaction(scope, txnId, eventId);
  return eventId;
}

/** Redact an event of the room (404 `M_NOT_FOUND` for one it does not hold: strict, Synapse accepts it). */
export function redact(
  store: MatrixStore,
  scope: string,
  roomId: string,
  eventId: string,
  txnId: string,
): string {
  store.joinedRoom(roomId);
  const earlier = store.transaction(scope, `redact\u0000${txnId}`);
  if (earlier !== undefined) return earlier;
  const target = store.event(roomId, eventId);
  if (target === undefined) throw new MatrixApiError(404, "M_NOT_FOUND", "Event not found.");
  target.redacted = true;
  const id = store.newEventId();
  store.add({
    eventId: id,
    roomId,
    type: "m.room.redaction",
    sender: BOT_USER,
    content: { redacts: eventId },
  });
  store.recordTransaction(scope, `redact\u0000${txnId}`, id);
  return id;
}

function checkSize(roomId: string, eventId: string, content: Record<string, unknown>): void {
  // The PDU as the server signs it: content plus a realistic envelope (hashes, signatures,
  // one prev event and the usual three auth events).
  const fakeId = `$${"A".repeat(43)}`;
  const pdu = {
    auth_events: [fakeId, fakeId, fakeId],
    content,
    depth: 1000,
    hashes: { sha256: "A".repeat(43) },
    origin_server_ts: Date.now(),
    prev_events: [fakeId],
    room_id: roomId,
    sender: BOT_USER,
    signatures: { "outbox.test": { "ed25519:a_AbCd": "A".repeat(86) } },
    type: "m.room.message",
    unsigned: { age_ts: Date.now() },
    event_id: eventId,
  };
  const size = Buffer.byteLength(JSON.stringify(pdu));
  if (size > MAX_EVENT_BYTES)
    throw new MatrixApiError(413, "M_TOO_LARGE", `event too large: ${size} bytes > ${MAX_EVENT_BYTES}`);
}

function placement(
  store: MatrixStore,
  roomId: string,
  relation: Record<string, unknown> | undefined,
): Pick<ObservedMessage, "replyTo" | "thread"> {
  if (relation === undefined) return {};
  const inReplyTo = relation["m.in_reply_to"] as { event_id?: unknown } | undefined;
  if (inReplyTo !== undefined && typeof inReplyTo?.event_id !== "string")
    throw badJson("m.in_reply_to.event_id must be a string");
  const replyId = inReplyTo?.event_id as string | undefined;
  if (relation.rel_type === "m.thread") {
    if (typeof relation.event_id !== "string") throw badJson("m.thread needs event_id");
    const root = store.event(roomId, relation.event_id);
    if (
      root?.content["m.relates_to"] !== undefined &&
      (root.content["m.relates_to"] as { rel_type?: unknown }).rel_type === "m.thread"
    )
      throw badJson("cannot start a thread from an event in a thread");
    if (
      relation.is_falling_back !== true &&
      relation.is_falling_back !== false &&
      relation.is_falling_back !== undefined
    )
      throw badJson("is_falling_back must be a boolean");
    const falling = relation.is_falling_back === true;
    return { thread: relation.event_id, ...(replyId !== undefined && !falling ? { replyTo: replyId } : {}) };
  }
  if (relation.rel_type !== undefined)
    throw badJson(`the emulator models no rel_type ${String(relation.rel_type)} on a message`);
  return replyId !== undefined ? { replyTo: replyId } : {};
}

function applyEdit(
  store: MatrixStore,
  media: MediaRepository,
  roomId: string,
  relation: Record<string, unknown>,
  content: Record<string, unknown>,
): void {
  const target = typeof relation.event_id === "string" ? store.event(roomId, relation.event_id) : undefined;
  if (target === undefined || target.redacted)
    throw new MatrixApiError(404, "M_NOT_FOUND", "Event to edit not found.");
  if (target.sender !== BOT_USER || target.observed === undefined)
    throw badJson(
      "m.replace must name a message of the same sender (the spec has clients ignore any other edit)",
    );
  const replacement = content["m.new_content"];
  if (typeof replacement !== "object" || replacement === null) throw badJson("m.replace needs m.new_content");
  if ("m.relates_to" in replacement) throw badJson("m.new_content must not hold m.relates_to");
  if (typeof content.body !== "string") throw badJson("an edit needs a fallback body");
  if ((replacement as { msgtype?: unknown }).msgtype !== target.content.msgtype)
    throw badJson("an edit must keep the msgtype");
  const shown = readMessage(replacement as Record<string, unknown>, media);
  const before = target.observed;
  if (before.kind !== "text" || shown.kind !== "text")
    throw badJson("the emulator models edits of text messages only");
  const { replyTo, thread } = before;
  // The edit event's own (outer) content decides whom it notifies.
  const mentions = mergeMentions(before.mentions, mentionsOf(content));
  target.observed = {
    ...shown,
    ...(mentions ? { mentions } : {}),
    ...(replyTo !== undefined ? { replyTo } : {}),
    ...(thread !== undefined ? { thread } : {}),
    revisions: [...(before.revisions ?? []), before.text ?? ""],
  };
}
