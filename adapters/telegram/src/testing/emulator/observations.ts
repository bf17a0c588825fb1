/**
 * What the emulated chats show, in arrival order: one {@link ObservedMessage} per send (an
 * album is one), found again by its message ids when an edit or a delete names them.
 */
import { mergeMentions } from "@outbox/core/testing";
import type { ObservedMessage } from "./types.js";

interface Entry {
  chatId: number;
  /** Message ids the observation stands for (an album: one per member). */
  ids: number[];
  message: ObservedMessage;
}

/** The observations of every chat. */
export class Observations {
  private readonly entries: Entry[] = [];

  /** Record what arrived as the messages `ids`. */
  record(chatId: number, ids: number[], message: ObservedMessage): void {
    this.entries.push({ chatId, ids, message });
  }

  /**
   * An accepted edit: the shown text becomes a revision, the new text and spans replace it;
   * whom it notifies adds to whom the message notified before.
   */
  edit(
    chatId: number,
    id: number,
    text: string,
    shown: Pick<ObservedMessage, "formatting" | "mentions">,
  ): void {
    const entry = this.find(chatId, id);
    if (!entry) return;
    const { formatting: _old, mentions: before, revisions = [], ...rest } = entry.message;
    const mentions = mergeMentions(before, shown.mentions);
    entry.message = {
      ...rest,
      text,
      ...(shown.formatting ? { formatting: shown.formatting } : {}),
      ...(mentions ? { mentions } : {}),
      revisions: [...revisions, entry.message.text ?? ""],
    };
  }

  /** A deleted message leaves the chat (an album member leaves its album). */
  remove(chatId: number, id: number): void {
    const entry = this.find(chatId, id);
    if (!entry) return;
    const index = entry.ids.indexOf(id);
    entry.ids.splice(index, 1);
    if (entry.ids.length === 0) this.entries.splice(this.entries.indexOf(entry), 1);
    else if (entry.message.items)
      entry.message = { ...entry.message, items: entry.message.items.filter((_, i) => i !== index) };
  }

  /** What a chat shows (every chat when omitted), in order. */
  list(chatId?: number): ObservedMessage[] {
    return this.entries.filter((e) => chatId === undefined || e.chatId === chatId).map((e) => e.message);
  }

  private find(chatId: number, id: number): Entry | undefined {
    return this.entries.find((e) => e.chatId === chatId && e.ids.includes(id));
  }
}
