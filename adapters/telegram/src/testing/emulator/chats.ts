/**
 * The chats the emulator knows, their messages (for reply targets) and topics, and the
 * Message objects it answers with, shaped like the Bot API's.
 */
import { badRequest } from "./api-error.js";
import { intParam, objectParam } from "./body.js";
import type { MediaField, StoredFile } from "./media.js";
import type { EmulatedChat } from "./types.js";

/** A Bot API Message object, as plain JSON. */
export type Message = { message_id: number } & Record<string, unknown>;

/** One chat's state. */
interface ChatState {
  chat: EmulatedChat;
  nextId: number;
  messages: Map<number, Message>;
}

/** Where and how one send lands: chat, topic, reply. */
export interface Placement {
  /** The chat. */
  chatId: number;
  /** Topic id, when given and valid. */
  thread?: number;
  /** The message replied to, when it exists. */
  replyTo?: Message;
}

/** The emulated bot, as `getMe` and `from` show it. */
export const BOT = {
  id: 123456,
  is_bot: true,
  first_name: "Outbox Emulator",
  username: "outbox_emulator_bot",
};

/** All chats and messages. */
export class Chats {
  private readonly chats = new Map<number, ChatState>();

  constructor(chats: EmulatedChat[]) {
    for (const chat of chats) this.add(chat);
  }

  /** Make a chat exist. */
  add(chat: EmulatedChat): void {
    this.chats.set(chat.id, { chat, nextId: 1, messages: new Map() });
  }

  /** Record a message as if a user had sent it (a reply target); returns its id. */
  seed(chatId: number, text: string): number {
    const state = this.state(chatId);
    const message: Message = {
      ...this.base(state, {}),
      from: { id: 1, is_bot: false, first_name: "User" },
      text,
    };
    state.messages.set(message.message_id, message);
    return message.message_id;
  }

  /** Resolve chat_id, message_thread_id and reply parameters, with Telegram's errors. */
  place(params: Record<string, unknown>): Placement {
    const { chatId, state } = this.chatOf(params);
    const placement: Placement = { chatId };
    const thread = intParam(params, "message_thread_id");
    if (thread !== undefined) {
      const topics = state.chat.topics;
      const exists = topics === "any" ? thread > 1 : (topics ?? []).includes(thread);
      if (!exists) throw badRequest("message thread not found");
      placement.thread = thread;
    }
    const reply = replyParameters(params);
    if (reply) {
      const target = state.messages.get(reply.messageId);
      if (target) placement.replyTo = target;
      else if (!reply.allowWithout) throw badRequest("message to be replied not found");
    }
    return placement;
  }

  /** Store and return a new message at a placement. */
  commit(placement: Placement, content: Record<string, unknown>): Message {
    const state = this.state(placement.chatId);
    const message: Message = { ...this.base(state, placement), ...content };
    state.messages.set(message.message_id, message);
    return message;
  }

  /**
   * The message an edit or a delete names by `chat_id` and `message_id`, with Telegram's
   * errors ("message to edit not found", "message to delete not found").
   */
  existing(params: Record<string, unknown>, action: "edit" | "delete"): Existing {
    const { chatId, state } = this.chatOf(params);
    const messageId = intParam(params, "message_id");
    if (messageId === undefined) throw badRequest("message identifier is not specified");
    const message = state.messages.get(messageId);
    if (!message) throw badRequest(`message to ${action} not found`);
    return {
      chatId,
      message,
      fromBot: (message.from as { id?: unknown }).id === BOT.id,
      type: chatType(state.chat),
    };
  }

  /** Store a message's new content (an edit); returns it as the Bot API answers. */
  replace(chatId: number, message: Message): Message {
    this.state(chatId).messages.set(message.message_id, message);
    return message;
  }

  /** Forget a message (a delete). */
  remove(chatId: number, messageId: number): void {
    this.state(chatId).messages.delete(messageId);
  }

  private chatOf(params: Record<string, unknown>): { chatId: number; state: ChatState } {
    const raw = params.chat_id;
    if (raw === undefined || raw === null || raw === "") throw badRequest("chat_id is empty");
    const chatId = Number(raw);
    const state = Number.isInteger(chatId) ? this.chats.get(chatId) : undefined;
    if (!state) throw badRequest("chat not found");
    return { chatId, state };
  }

  private state(chatId: number): ChatState {
    const state = this.chats.get(chatId);
    if (!state) throw badRequest("chat not found");
    return state;
  }

  private base(state: ChatState, placement: Omit<Placement, "chatId">): Message {
    const { chat } = state;
    const type = chatType(chat);
    const message: Message = {
      message_id: state.nextId++,
      date: Math.floor(Date.now() / 1000),
      from: BOT,
      chat:
        type === "private" ? { id: chat.id, type, first_name: "User" } : { id: chat.id, type, title: "Chat" },
    };
    if (placement.thread !== undefined) {
      message.message_thread_id = placement.thread;
      message.is_topic_message = true;
    }
    if (placement.replyTo) {
      // Telegram nests one level only: the replied-to message comes without its own reply.
      const { reply_to_message: _nested, ...replied } = placement.replyTo;
      message.reply_to_message = replied;
    }
    return message;
  }
}

/** A message an edit or delete names, and where it is. */
export interface Existing {
  /** The chat. */
  chatId: number;
  /** The stored message. */
  message: Message;
  /** The bot sent it (only those can be edited). */
  fromBot: boolean;
  /** The chat's type (in private chats a bot may delete the user's messages too). */
  type: NonNullable<EmulatedChat["type"]>;
}

function chatType(chat: EmulatedChat): NonNullable<EmulatedChat["type"]> {
  return chat.type ?? (chat.id < 0 ? "supergroup" : "private");
}

function replyParameters(
  params: Record<string, unknown>,
): { messageId: number; allowWithout: boolean } | undefined {
  const parameters = objectParam(params, "reply_parameters");
  if (parameters !== undefined) {
    if (typeof parameters !== "object" || parameters === null) throw badRequest("invalid reply parameters");
    const fields = parameters as Record<string, unknown>;
    const messageId = intParam(fields, "message_id");
    if (messageId === undefined) throw badRequest("message_id in reply parameters is empty");
    return { messageId, allowWithout: fields.allow_sending_without_reply === true };
  }
  const legacy = intParam(params, "reply_to_message_id");
  if (legacy === undefined) return undefined;
  const allow = params.allow_sending_without_reply;
  return { messageId: legacy, allowWithout: allow === true || allow === "true" };
}

/** The Message fields describing a file of a kind. */
export function mediaContent(field: MediaField, file: StoredFile): Record<string, unknown> {
  const ids = { file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size };
  const dims = { width: file.width ?? 0, height: file.height ?? 0 };
  const named = { ...ids, file_name: file.fileName, mime_type: file.mimeType };
  switch (field) {
    case "photo":
      return { photo: [{ ...ids, ...dims }] };
    case "animation":
      return { animation: { ...named, ...dims, duration: 0 }, document: named };
    case "video":
      return { video: { ...named, ...dims, duration: 0 } };
    case "audio":
      return { audio: { ...named, duration: 0 } };
    case "voice":
      return { voice: { ...ids, mime_type: file.mimeType, duration: 0 } };
    case "document":
      return { document: named };
  }
}
