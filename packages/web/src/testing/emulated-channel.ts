/**
 * A ready web channel: the inbox on a free 127.0.0.1 port, the adapter writing to its store,
 * and a conversation seeded with one message from the person (`target.currentMessageId`).
 */
import { randomBytes } from "node:crypto";
import type { EmulatedChannel, EmulatedChannelOptions, Fault, ObservedMessage } from "@outbox/core";
import { createWebAdapter } from "../adapter.js";
import { startWebInbox, type WebInbox } from "../server/start.js";
import { createMemoryWebStore } from "../store/memory-store.js";
import type { WebEvent } from "../store/types.js";
import type { WebAdapter } from "../types.js";
import { createFaultyStore } from "./faulty-store.js";
import { observeMessages } from "./observe.js";

/** The emulated web channel, with the running inbox and the page to open. */
export interface WebEmulatedChannel extends EmulatedChannel<WebInbox> {
  /** The web adapter. */
  adapter: WebAdapter;
  /** The running inbox. */
  inbox: WebInbox;
  /** The conversation's page, token included: open it in a browser. */
  pageUrl: string;
  /** Make the adapter's next store appends fail (429, 5xx, reset, refusal) as conformance.md describes; the one fault target is `append`. */
  inject(fault: Fault): void;
}

const CONVERSATION = "demo";
const INBOUND_ID = "inbound-1";

/** Start an inbox and an adapter on a fresh in-memory store. */
export async function createEmulatedChannel(
  options: EmulatedChannelOptions = {},
): Promise<WebEmulatedChannel> {
  const store = createMemoryWebStore();
  const inbox = await startWebInbox({ auth: { secret: randomBytes(32).toString("hex") }, store });
  await store.append({
    id: INBOUND_ID,
    conversation: CONVERSATION,
    author: "user",
    kind: "text",
    html: "<p>Show me what you can do.</p>",
    createdAt: new Date().toISOString(),
  });
  const faulty = createFaultyStore(store);
  const adapter = createWebAdapter({
    store: faulty.store,
    ...(options.media ? { media: options.media } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const events: WebEvent[] = [];
  const unsubscribe = store.subscribe(CONVERSATION, (event) => events.push(event));
  return {
    platform: adapter.name,
    adapter,
    inbox,
    emulator: inbox,
    pageUrl: inbox.urlFor(CONVERSATION),
    target: { to: CONVERSATION, currentMessageId: INBOUND_ID },
    inject: (fault) => faulty.faults.inject(fault),
    observe: (): ObservedMessage[] => observeMessages(events.map((event) => event.message)),
    async close() {
      unsubscribe();
      await inbox.close();
    },
  };
}
