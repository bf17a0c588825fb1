/**
 * Rendered articles by event id, shared by the page and every open event stream: an event is
 * rendered (and its HTML sanitized) once, however many browsers show it. Messages never
 * change once appended, so entries never go stale; the oldest go beyond `limit`.
 */
import type { WebEvent, WebMessage, WebMessageStore } from "../store/types.js";
import { renderArticle } from "./article.js";

/** Renders events to articles, remembering the latest `limit` of them. */
export interface ArticleCache {
  /** The article of an event; `known` resolves reply references without asking the store. */
  render(event: WebEvent, known?: ReadonlyMap<string, WebMessage>): Promise<string>;
}

/**
 * Create a cache over `store` (used to quote the message a reply references); canvases are
 * framed only from `embedPaths` when root-relative.
 */
export function createArticleCache(
  store: WebMessageStore,
  embedPaths?: readonly string[],
  limit = 2_000,
): ArticleCache {
  const cache = new Map<string, string>();
  return {
    async render(event, known) {
      const key = `${event.message.conversation}\u0000${event.id}`;
      const hit = cache.get(key);
      if (hit !== undefined) return hit;
      const { message } = event;
      const quoted =
        message.replyTo === undefined
          ? undefined
          : (known?.get(message.replyTo) ?? (await store.get(message.conversation, message.replyTo)));
      const html = renderArticle(message, quoted, embedPaths);
      cache.set(key, html);
      if (cache.size > limit) cache.delete(cache.keys().next().value as string);
      return html;
    },
  };
}
