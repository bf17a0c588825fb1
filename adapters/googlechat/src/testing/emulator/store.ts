/**
 * What the emulated Google Chat holds: spaces (whether the app is in them), their threads
 * (by name and by key) and messages (by system name and by client-assigned id), each decoded
 * into what the Chat client shows (its latest edit, earlier texts kept as revisions).
 */
import { ChatApiError, invalidArgument, notFound } from "./errors.js";
import type { EmulatedSpace, StoredMessage } from "./types.js";

/** The client-assigned id Google accepts: `client-`, then lowercase letters, digits, hyphens; 63 at most. */
export const CLIENT_ID = /^client-[a-z0-9-]{1,56}$/;

/** Spaces, threads and messages. */
export class ChatStore {
  readonly spaces = new Map<string, Required<EmulatedSpace>>();
  readonly messages: StoredMessage[] = [];
  private readonly byName = new Map<string, StoredMessage>();
  /** Thread names by `space\nkey`. */
  private readonly keys = new Map<string, string>();
  private readonly threads = new Set<string>();
  private sequence = 0;

  constructor(spaces: EmulatedSpace[]) {
    for (const space of spaces) this.addSpace(space);
  }

  /** Make a space exist. */
  addSpace(space: EmulatedSpace): void {
    this.spaces.set(space.name, { name: space.name, member: space.member ?? true });
  }

  /** The space `name`, if the app may write there: 404 unknown, 403 when the app is not a member. */
  space(name: string): string {
    const space = this.spaces.get(name);
    if (space === undefined) throw notFound(`Space ${name} not found.`);
    if (!space.member)
      throw new ChatApiError(
        403,
        "PERMISSION_DENIED",
        "The caller does not have permission: the app is not a member of the space.",
      );
    return name;
  }

  /** A new id, as Google's look (`AbC…`). */
  private id(): string {
    this.sequence += 1;
    return `m${String(this.sequence).padStart(10, "0")}.m${String(this.sequence).padStart(10, "0")}`;
  }

  /** A new thread in `space`, keyed when `key` is given. */
  newThread(space: string, key?: string): string {
    this.sequence += 1;
    const name = `${space}/threads/t${String(this.sequence).padStart(10, "0")}`;
    this.threads.add(name);
    if (key !== undefined) this.keys.set(`${space}\n${key}`, name);
    return name;
  }

  /** An existing thread of `space` by name or key. */
  findThread(space: string, thread: { name?: string; threadKey?: string }): string | undefined {
    if (thread.name !== undefined)
      return this.threads.has(thread.name) && thread.name.startsWith(`${space}/`) ? thread.name : undefined;
    return this.keys.get(`${space}\n${thread.threadKey ?? ""}`);
  }

  /** Refuse a client-assigned id of the wrong form, or one a message of the space already has. */
  checkClientId(space: string, id: string): void {
    if (!CLIENT_ID.test(id))
      throw invalidArgument(
        `messageId ${JSON.stringify(id.slice(0, 80))}: a custom ID must begin with client- and contain only lowercase letters, numbers and hyphens, up to 63 characters`,
      );
    if (this.byName.has(`${space}/messages/${id}`))
      throw new ChatApiError(
        409,
        "ALREADY_EXISTS",
        `Message with messageId ${id} already exists in ${space}.`,
      );
  }

  /** Store a message; answers its stored record. */
  add(record: Omit<StoredMessage, "name">): StoredMessage {
    const stored: StoredMessage = { ...record, name: `${record.space}/messages/${this.id()}` };
    this.messages.push(stored);
    this.byName.set(stored.name, stored);
    // A message keeps its client-assigned name even once deleted: Google documents no reuse.
    if (stored.clientId !== undefined) this.byName.set(`${stored.space}/messages/${stored.clientId}`, stored);
    return stored;
  }

  /** A message of the app's it may change: by system name or client-assigned name. */
  own(name: string): StoredMessage {
    const stored = this.byName.get(name);
    if (stored === undefined || stored.deleted) throw notFound(`Message ${name} not found.`);
    if (stored.inbound)
      throw new ChatApiError(403, "PERMISSION_DENIED", "An app can only change messages it created.");
    return stored;
  }

  /** The app's messages of a space (every one when omitted), in order, as the client shows them. */
  observe(space?: string) {
    return this.messages
      .filter((m) => !m.inbound && !m.deleted && (space === undefined || m.space === space))
      .map((m) => m.observed);
  }
}
