/**
 * What the emulated Discord holds: channels (text, DM, threads), messages with snowflake
 * ids, and every bot message decoded into an {@link ObservedMessage}.
 */
import type { ObservedMessage } from "@outbox/core";
import { DiscordApiError } from "./api-error.js";
import type { EmulatedDiscordChannel } from "./types.js";

/** Discord's epoch (2015-01-01). */
const DISCORD_EPOCH = 1_420_070_400_000n;

/** A stored message. */
export interface StoredMessage {
  /** Snowflake id. */
  id: string;
  /** Channel (or thread) the message is in. */
  channelId: string;
  /** Sent by the bot (observed) or seeded as a user's. */
  fromBot: boolean;
  /** The raw Create Message payload (bot messages). */
  payload?: Record<string, unknown>;
  /** What a client shows. */
  observed?: ObservedMessage;
  /** The message object Discord answered with (bot messages). */
  answer?: Record<string, unknown>;
}

/** Channels and messages. */
export class DiscordStore {
  readonly channels = new Map<
    string,
    Required<Omit<EmulatedDiscordChannel, "parent">> & { parent?: string }
  >();
  readonly messages: StoredMessage[] = [];
  private readonly byId = new Map<string, StoredMessage>();
  private readonly dms = new Map<string, string>();
  private sequence = 0n;

  constructor(
    channels: EmulatedDiscordChannel[],
    readonly users: Set<string>,
    private readonly threadsFromMessages: boolean,
  ) {
    for (const channel of channels) this.addChannel(channel);
  }

  /** A new snowflake: milliseconds since Discord's epoch, then a sequence. */
  snowflake(): string {
    this.sequence += 1n;
    return String(((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (this.sequence & 0xfffn));
  }

  /** Make a channel exist. */
  addChannel(channel: EmulatedDiscordChannel): void {
    this.channels.set(channel.id, {
      id: channel.id,
      type: channel.type ?? "text",
      visible: channel.visible ?? true,
      canSend: channel.canSend ?? true,
      voiceMessages: channel.voiceMessages ?? true,
      ...(channel.parent ? { parent: channel.parent } : {}),
    });
  }

  /** The channel, or 10003 Unknown Channel; a message id becomes its thread when allowed. */
  channel(id: string) {
    let channel = this.channels.get(id);
    if (channel === undefined && this.threadsFromMessages) {
      const root = this.byId.get(id);
      const parent = root ? this.channels.get(root.channelId) : undefined;
      if (parent?.type === "text") {
        this.addChannel({ id, type: "thread", parent: parent.id });
        channel = this.channels.get(id);
      }
    }
    if (channel === undefined) throw new DiscordApiError(404, 10003, "Unknown Channel");
    if (!channel.visible) throw new DiscordApiError(403, 50001, "Missing Access");
    return channel;
  }

  /** The DM channel with a user (created once), or 10013 Unknown User. */
  dmWith(user: string): string {
    if (!this.users.has(user)) throw new DiscordApiError(404, 10013, "Unknown User");
    let id = this.dms.get(user);
    if (id === undefined) {
      id = this.snowflake();
      this.addChannel({ id, type: "dm" });
      this.dms.set(user, id);
    }
    return id;
  }

  /** A message by id within a channel. */
  message(channelId: string, id: string): StoredMessage | undefined {
    const message = this.byId.get(id);
    return message?.channelId === channelId ? message : undefined;
  }

  /** Store a message. */
  add(message: StoredMessage): void {
    this.messages.push(message);
    this.byId.set(message.id, message);
  }

  /** Remove a message (a delete). */
  remove(message: StoredMessage): void {
    this.messages.splice(this.messages.indexOf(message), 1);
    this.byId.delete(message.id);
  }

  /** Bot messages in a channel and its threads (every channel when omitted), in order. */
  observe(channelId?: string): ObservedMessage[] {
    return this.messages
      .filter((m) => m.fromBot && m.observed)
      .filter(
        (m) =>
          channelId === undefined ||
          m.channelId === channelId ||
          this.channels.get(m.channelId)?.parent === channelId,
      )
      .map((m) => m.observed as ObservedMessage);
  }
}
