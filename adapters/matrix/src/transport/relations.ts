/**
 * Replies and threads as relations (`m.relates_to`). The homeserver stores a reply to an
 * event it does not hold, and Element then draws "Unable to load event" above it: so the
 * adapter looks the target up first (`GET /rooms/{roomId}/event/{eventId}`, once per event)
 * and refuses an unknown one with `TargetNotFoundError("reply")`; the engine then sends
 * without the quote and records the degradation. A message in a thread that replies to
 * nothing carries the thread's reply fallback (`is_falling_back`) to the latest event the
 * adapter sent there, as the spec asks, for clients without threads.
 */
import { type OperationBase, TargetNotFoundError } from "@outbox/core";
import { type MatrixClient, MatrixHttpError } from "../client/matrix-client.js";
import { toOutboxError } from "./errors.js";

/** Most event ids remembered as seen (sent or looked up); past it the memory starts over. */
const KNOWN_LIMIT = 10_000;

/** The `m.relates_to` of a message. */
export type Relation = Record<string, unknown>;

/** Known events and the latest event per thread. */
export class Relations {
  private readonly known = new Set<string>();
  private readonly latest = new Map<string, string>();

  constructor(private readonly client: MatrixClient) {}

  /** The relation of an operation, its reply target and thread root checked first. */
  async of(op: OperationBase, room: string): Promise<Relation | undefined> {
    if (op.replyTo !== undefined) await this.check(room, op.replyTo, "reply", op.signal);
    if (op.thread !== undefined) await this.check(room, op.thread, "thread", op.signal);
    if (op.thread !== undefined)
      return {
        rel_type: "m.thread",
        event_id: op.thread,
        is_falling_back: op.replyTo === undefined,
        "m.in_reply_to": { event_id: op.replyTo ?? this.latest.get(op.thread) ?? op.thread },
      };
    if (op.replyTo !== undefined) return { "m.in_reply_to": { event_id: op.replyTo } };
    return undefined;
  }

  /** Record an event the adapter sent (in `thread`, when given). */
  sent(eventId: string, thread: string | undefined): void {
    this.remember(eventId);
    if (thread === undefined) return;
    if (this.latest.size >= KNOWN_LIMIT) this.latest.clear();
    this.latest.set(thread, eventId);
  }

  private async check(room: string, eventId: string, what: "reply" | "thread", signal?: AbortSignal) {
    if (this.known.has(eventId)) return;
    if (!eventId.startsWith("$"))
      throw new TargetNotFoundError(`Matrix event id "${eventId}" does not start with "$"`, what);
    try {
      await this.client.getEvent(room, eventId, signal);
    } catch (error) {
      if (error instanceof MatrixHttpError && error.status === 404)
        throw new TargetNotFoundError(
          `Matrix event ${eventId} is not in room ${room} (or the bot cannot see it): ${
            what === "reply" ? "a reply to it would show a dangling quote" : "no thread can hang from it"
          }`,
          what,
          { cause: error },
        );
      throw toOutboxError(error, { route: `GET /rooms/${room}/event/${eventId}`, room });
    }
    this.remember(eventId);
  }

  private remember(eventId: string): void {
    if (this.known.size >= KNOWN_LIMIT) this.known.clear();
    this.known.add(eventId);
  }
}
