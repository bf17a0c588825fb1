/**
 * The default {@link WebMessageStore}: everything in memory, gone on restart.
 */
import type { StoredMedia, WebEvent, WebMessage, WebMessageStore } from "./types.js";

/** Create an in-memory store. Event ids are increasing decimal strings (`"1"`, `"2"`, …). */
export function createMemoryWebStore(): WebMessageStore {
  let sequence = 0;
  const logs = new Map<string, WebEvent[]>();
  const byId = new Map<string, WebEvent>();
  const media = new Map<string, StoredMedia>();
  const readable = new Set<string>();
  const listeners = new Map<string, Set<(event: WebEvent) => void>>();
  const key = (conversation: string, id: string) => `${conversation}\u0000${id}`;

  return {
    async append(message) {
      const existing = byId.get(key(message.conversation, message.id));
      if (existing) return existing;
      sequence += 1;
      const event: WebEvent = { id: String(sequence), message: structuredClone(message) };
      byId.set(key(message.conversation, message.id), event);
      const log = logs.get(message.conversation) ?? [];
      log.push(event);
      logs.set(message.conversation, log);
      for (const listener of listeners.get(message.conversation) ?? []) listener(event);
      return event;
    },
    async list(conversation, after) {
      const log = logs.get(conversation) ?? [];
      if (after === undefined) return [...log];
      const from = Number(after);
      if (!Number.isSafeInteger(from)) return [...log];
      return log.filter((event) => Number(event.id) > from);
    },
    async get(conversation, id): Promise<WebMessage | undefined> {
      return byId.get(key(conversation, id))?.message;
    },
    async putMedia(conversation, sha256, item) {
      if (!media.has(sha256)) media.set(sha256, item);
      readable.add(key(conversation, sha256));
    },
    async getMedia(conversation, sha256) {
      return readable.has(key(conversation, sha256)) ? media.get(sha256) : undefined;
    },
    subscribe(conversation, listener) {
      const set = listeners.get(conversation) ?? new Set();
      set.add(listener);
      listeners.set(conversation, set);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(conversation);
      };
    },
  };
}
