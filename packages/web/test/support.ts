/**
 * Test helpers: a running channel, authenticated fetches and an SSE reader.
 */
import { createEmulatedChannel, type WebEmulatedChannel } from "../src/testing/index.js";

/** Fetch a path of the inbox with a conversation's token as a bearer. */
export function authed(
  channel: WebEmulatedChannel,
  path: string,
  init: RequestInit = {},
  conversation = "demo",
) {
  const headers = new Headers(init.headers);
  headers.set("Authorization", `Bearer ${channel.inbox.tokenFor(conversation)}`);
  return fetch(`${channel.inbox.url}/c/${encodeURIComponent(conversation)}/${path}`, { ...init, headers });
}

/** One parsed Server-Sent Event. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Read events from an SSE response until `count` have arrived, then cancel the stream.
 * Keep-alive comments are skipped.
 */
export async function readEvents(response: Response, count: number): Promise<SseEvent[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = "";
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0 && events.length < count) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const event: SseEvent = { data: "" };
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") event.id = value;
        else if (field === "event") event.event = value;
        else if (field === "data") data.push(value);
      }
      if (data.length > 0) {
        event.data = data.join("\n");
        events.push(event);
      }
    }
  }
  await reader.cancel();
  return events;
}

export { createEmulatedChannel, type WebEmulatedChannel };
