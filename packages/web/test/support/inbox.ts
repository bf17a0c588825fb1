/**
 * A web inbox for browser tests: store, server and adapter wired together on 127.0.0.1, and
 * `ids()` of what the conversation holds (what the page must end up showing).
 */
import { randomBytes } from "node:crypto";
import type { MediaPolicy } from "@outbox/core";
import { createWebAdapter } from "../../src/adapter.js";
import { startWebInbox, type WebInbox } from "../../src/server/start.js";
import { createMemoryWebStore } from "../../src/store/memory-store.js";
import type { WebMessageStore } from "../../src/store/types.js";
import type { WebAdapter } from "../../src/types.js";

/** A running inbox with its adapter. */
export interface TestInbox {
  inbox: WebInbox;
  adapter: WebAdapter;
  store: WebMessageStore;
  /** Ids of every message the conversation holds, in order. */
  ids(conversation: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Start an inbox (random port, random secret) and an adapter writing to its store. */
export async function startTestInbox(options: { media?: MediaPolicy; store?: WebMessageStore } = {}) {
  const store = options.store ?? createMemoryWebStore();
  const inbox = await startWebInbox({ auth: { secret: randomBytes(32).toString("hex") }, store });
  const adapter = createWebAdapter({ store, ...(options.media ? { media: options.media } : {}) });
  return {
    inbox,
    adapter,
    store,
    ids: async (conversation: string) => (await store.list(conversation)).map((e) => e.message.id),
    close: () => inbox.close(),
  } satisfies TestInbox;
}
