/**
 * What the emulated homeserver holds: rooms (aliases, membership, encryption), events with
 * their ids, the transaction ids already used, and every bot message decoded into an
 * {@link ObservedMessage} as Element shows it (its latest edit applied, the earlier texts
 * kept as revisions; a redacted message gone).
 */
import { createHash } from "node:crypto";
import type { ObservedMessage } from "@outbox/core";
import { MatrixApiError } from "./api-error.js";
import { BOT_USER, type EmulatedMatrixRoom } from "./types.js";

/** A stored event. */
export interface StoredEvent {
  /** `$…` event id (room version 4+ shape: base64url of a hash). */
  eventId: string;
  /** The room. */
  roomId: string;
  /** Event type. */
  type: string;
  /** Sender. */
  sender: string;
  /** The content as sent. */
  content: Record<string, unknown>;
  /** What Element shows (bot `m.room.message` events that are not edits). */
  observed?: ObservedMessage;
  /** Redacted. */
  redacted?: boolean;
}

/** Rooms, events and transactions. */
export class MatrixStore {
  readonly rooms = new Map<string, Required<Omit<EmulatedMatrixRoom, "aliases">>>();
  readonly aliases = new Map<string, string>();
  readonly events: StoredEvent[] = [];
  private readonly byId = new Map<string, StoredEvent>();
  /** Transaction id → event id, per access token (the spec scopes txnIds to the device). */
  private readonly txns = new Map<string, string>();
  private sequence = 0;

  constructor(rooms: EmulatedMatrixRoom[]) {
    for (const room of rooms) this.addRoom(room);
  }

  /** Make a room exist. */
  addRoom(room: EmulatedMatrixRoom): void {
    this.rooms.set(room.id, { id: room.id, joined: room.joined ?? true, encrypted: room.encrypted ?? false });
    for (const alias of room.aliases ?? []) this.aliases.set(alias, room.id);
  }

  /** The room, if the bot may send there; 403 `M_FORBIDDEN` as Synapse answers for a room it is not in (or that does not exist). */
  joinedRoom(roomId: string) {
    const room = this.rooms.get(roomId);
    if (room === undefined || !room.joined)
      throw new MatrixApiError(403, "M_FORBIDDEN", `User ${BOT_USER} not in room ${roomId}`);
    return room;
  }

  /** A new event id. */
  newEventId(): string {
    this.sequence += 1;
    return `$${createHash("sha256").update(`outbox-emulator-${this.sequence}-${Math.random()}`).digest("base64url")}`;
  }

  /** The event id already sent under a transaction, if any. */
  transaction(scope: string, txnId: string): string | undefined {
    return this.txns.get(`${scope}\u0000${txnId}`);
  }

  /** Record a transaction's event. */
  recordTransaction(scope: string, txnId: string, eventId: string): void {
    this.txns.set(`${scope}\u0000${txnId}`, eventId);
  }

  /** An event of a room. */
  event(roomId: string, eventId: string): StoredEvent | undefined {
    const event = this.byId.get(eventId);
    return event?.roomId === roomId ? event : undefined;
  }

  /** Store an event. */
  add(event: StoredEvent): void {
    this.events.push(event);
    this.byId.set(event.eventId, event);
  }

  /** Bot messages of a room (every room when omitted), in order, as Element shows them. */
  observe(roomId?: string): ObservedMessage[] {
    return this.events
      .filter((e) => e.observed !== undefined && !e.redacted && (roomId === undefined || e.roomId === roomId))
      .map((e) => e.observed as ObservedMessage);
  }
}
