/**
 * The event stream of one conversation (Server-Sent Events): first every event after the
 * client's `Last-Event-ID` (or `?after=`), then live events as the store appends them, each
 * with its `id:` so a reconnecting browser resumes exactly where it stopped. Subscribing
 * happens before the history is read, and events already replayed are skipped, so nothing
 * appended in between is lost or doubled.
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { WebEvent, WebMessageStore } from "../store/types.js";
import type { ArticleCache } from "./article-cache.js";

/** Stream `conversation`'s events to the client of `c`. */
export function eventStream(
  c: Context,
  store: WebMessageStore,
  articles: ArticleCache,
  conversation: string,
  keepAliveMs: number,
): Response {
  const after = c.req.header("Last-Event-ID") ?? c.req.query("after");
  c.header("X-Accel-Buffering", "no");
  const response = streamSSE(c, async (stream) => {
    const pending: WebEvent[] = [];
    let wake: (() => void) | undefined;
    let open = true;
    const unsubscribe = store.subscribe(conversation, (event) => {
      pending.push(event);
      wake?.();
    });
    const timer = setInterval(() => void stream.write(": keep-alive\n\n"), keepAliveMs);
    stream.onAbort(() => {
      open = false;
      clearInterval(timer);
      unsubscribe();
      wake?.();
    });
    const send = async (event: WebEvent) => {
      const html = await articles.render(event);
      await stream.writeSSE({
        id: event.id,
        event: "message",
        data: JSON.stringify({ id: event.message.id, html }),
      });
    };
    const replayed = new Set<string>();
    for (const event of await store.list(conversation, after === "" ? undefined : after)) {
      replayed.add(event.id);
      await send(event);
    }
    while (open) {
      const event = pending.shift();
      if (event === undefined) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      } else if (!replayed.has(event.id)) await send(event);
    }
  });
  // streamSSE answers `no-cache` (store, revalidate); a conversation must not be stored at all.
  response.headers.set("Cache-Control", "no-store");
  return response;
}
