/**
 * Where an operation lands: the room (an id `!…`, or an alias `#room:server` resolved once),
 * checked once for end-to-end encryption: the adapter does not encrypt, so an encrypted room
 * is refused by name unless the integrator opted in to plaintext.
 */
import { type OperationBase, TargetNotFoundError, UnsupportedFeatureError } from "@outbox/core";
import type { MatrixClient } from "../client/matrix-client.js";
import { toOutboxError } from "./errors.js";

const ROOM_ID = /^![^\s/]+$/;
const ALIAS = /^#[^\s:]+:\S+$/;

/** Resolves and checks rooms, each once. */
export class RoomResolver {
  private readonly rooms = new Map<string, Promise<string>>();

  constructor(
    private readonly client: MatrixClient,
    private readonly allowUnencrypted: boolean,
  ) {}

  /** The room id of an operation, checked (format, alias, encryption). */
  roomOf(op: OperationBase): Promise<string> {
    const { to } = op.target;
    let room = this.rooms.get(to);
    if (room === undefined) {
      room = this.check(to, op.signal);
      room.catch(() => this.rooms.delete(to));
      this.rooms.set(to, room);
    }
    return room;
  }

  private async check(to: string, signal: AbortSignal | undefined): Promise<string> {
    if (!ROOM_ID.test(to) && !ALIAS.test(to))
      throw new TargetNotFoundError(
        `Matrix room "${to}" is neither a room id (!abc:example.org) nor an alias (#room:example.org)`,
        "chat",
      );
    let room = to;
    if (to.startsWith("#")) {
      try {
        room = await this.client.resolveAlias(to, signal);
      } catch (error) {
        throw toOutboxError(error, { route: `GET /directory/room/${to}`, room: to });
      }
    }
    if (this.allowUnencrypted) return room;
    let encryption: Record<string, unknown> | undefined;
    try {
      encryption = await this.client.getState(room, "m.room.encryption", "", signal);
    } catch (error) {
      throw toOutboxError(error, { route: `GET /rooms/${room}/state/m.room.encryption`, room });
    }
    if (encryption !== undefined)
      throw new UnsupportedFeatureError(
        "encryption",
        `Matrix room ${room} is end-to-end encrypted (${String(encryption.algorithm)}) and Outbox does not encrypt: ` +
          "its members would see the reply marked as unencrypted. Use an unencrypted room, or set " +
          "allowUnencryptedInEncryptedRooms: true to send plaintext anyway.",
      );
    return room;
  }
}
