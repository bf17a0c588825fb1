/**
 * The web adapter: capabilities, the HTML renderer and the store-writing transport, put
 * together by core's engine, plus canvas embeds (which the engine's plan does not carry):
 * after the reply's parts, each embed becomes an `embed` message of its own.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  type CanvasEmbed,
  createAdapter,
  normalizePayload,
  type ReplyPayload,
  type ReplyPayloadInput,
  type SendOptions,
  type Target,
} from "@outbox/core";
import { webCapabilities } from "./capabilities.js";
import { webRenderer } from "./render/renderer.js";
import { createMemoryWebStore } from "./store/memory-store.js";
import type { WebMessageStore } from "./store/types.js";
import { createWebTransport } from "./transport/transport.js";
import type { WebAdapter, WebAdapterConfig } from "./types.js";

/** Create the web adapter. Messages go to `config.store` (default: a new in-memory store). */
export function createWebAdapter(config: WebAdapterConfig = {}): WebAdapter {
  const store = config.store ?? createMemoryWebStore();
  const inner = createAdapter({
    name: "web",
    capabilities: webCapabilities,
    renderer: webRenderer,
    transport: createWebTransport(store),
    ...(config.media ? { media: config.media } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.journal ? { store: config.journal } : {}),
  });
  return {
    name: inner.name,
    capabilities: inner.capabilities,
    store,
    async send(input: ReplyPayloadInput | ReplyPayload, target: Target, options?: SendOptions) {
      const receipt = await inner.send(input, target, options);
      await appendEmbeds(store, normalizePayload(input).embeds, target, options?.idempotencyKey);
      return receipt;
    },
  };
}

/**
 * Append one `embed` message per canvas. With an idempotency key the message ids derive from
 * it, so a repeated send appends nothing new (the store's append is idempotent on ids).
 */
async function appendEmbeds(
  store: WebMessageStore,
  embeds: CanvasEmbed[],
  target: Target,
  key: string | undefined,
): Promise<void> {
  for (const [index, embed] of embeds.entries()) {
    const id =
      key === undefined
        ? randomUUID()
        : `embed-${createHash("sha256").update(`${target.to}\u0000${key}\u0000${index}`).digest("hex").slice(0, 32)}`;
    await store.append({
      id,
      conversation: target.to,
      author: "assistant",
      kind: "embed",
      embed: embed.preview,
      createdAt: new Date().toISOString(),
      ...(target.thread === undefined ? {} : { thread: target.thread }),
    });
  }
}
