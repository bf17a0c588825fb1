/**
 * The request strategy of the REST client the adapter builds: undici 6's `request` through
 * the adapter's own `Agent` (never the global dispatcher slot), with bodies streamed as
 * given (a multipart upload is never gathered in memory, unlike @discordjs/rest's default
 * strategy), and a 429 without `Retry-After` given one from the JSON `retry_after` so the
 * client never retries it at once.
 */
import { STATUS_CODES } from "node:http";
import type { ResponseLike } from "@discordjs/rest";
import { type Dispatcher, Headers, request } from "undici";

type RequestInit = Parameters<NonNullable<import("@discordjs/rest").RESTOptions["makeRequest"]>>[1];

/** A `makeRequest` for `@discordjs/rest` sending through `agent`. */
export function streamingRequest(
  agent: Dispatcher,
): (url: string, init: RequestInit) => Promise<ResponseLike> {
  return async (url, init) => {
    const res = await request(url, {
      method: (init.method ?? "GET") as Dispatcher.HttpMethod,
      headers: init.headers as Record<string, string>,
      body: (init.body ?? null) as Dispatcher.RequestOptions["body"],
      signal: init.signal ?? undefined,
      dispatcher: agent,
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
    }
    let bytes: Promise<ArrayBuffer> | undefined;
    const read = () => {
      bytes ??= res.body.arrayBuffer();
      return bytes;
    };
    const readText = async () => new TextDecoder().decode(await read());
    if (res.statusCode === 429 && !headers.has("retry-after")) {
      const retryAfter = retryAfterOf(await readText());
      if (retryAfter !== undefined) headers.set("retry-after", String(retryAfter));
    }
    return {
      body: null,
      arrayBuffer: read,
      json: async () => JSON.parse(await readText()),
      text: readText,
      get bodyUsed() {
        return bytes !== undefined;
      },
      headers: headers as unknown as ResponseLike["headers"],
      status: res.statusCode,
      statusText: STATUS_CODES[res.statusCode] ?? "",
      ok: res.statusCode >= 200 && res.statusCode < 300,
    };
  };
}

/** The JSON `retry_after` (seconds) of a 429 body, if any. */
function retryAfterOf(body: string): number | undefined {
  try {
    const value = (JSON.parse(body) as { retry_after?: unknown }).retry_after;
    return typeof value === "number" && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}
