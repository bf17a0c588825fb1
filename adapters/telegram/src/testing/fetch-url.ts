/**
 * How the emulator downloads URL media, as Telegram's servers do: over Node's own http(s)
 * client, optionally trusting extra certificates (a local fixture host's) and resolving host
 * names with a given resolver (so a test host name can point at 127.0.0.1).
 */
import { get as httpGet } from "node:http";
import { get as httpsGet } from "node:https";
import type { LookupFunction } from "node:net";
import type { FetchedUrl, TelegramEmulatorOptions } from "./emulator/types.js";

/** Options of {@link createUrlFetcher}. */
export interface UrlFetcherOptions {
  /** PEM certificate(s) trusted for https downloads, on top of nothing else when given (Node's default roots otherwise). */
  ca?: string;
  /** Resolver for the host names of the URLs. Default: the system resolver. */
  lookup?: LookupFunction;
}

/** A `fetchUrl` for {@link TelegramEmulatorOptions} that downloads http(s) URLs with these options (no redirects followed). */
export function createUrlFetcher(
  options: UrlFetcherOptions = {},
): NonNullable<TelegramEmulatorOptions["fetchUrl"]> {
  return (url, signal) =>
    new Promise<FetchedUrl>((resolve, reject) => {
      const secure = url.startsWith("https://");
      if (!secure && !url.startsWith("http://")) {
        reject(new Error("the emulator downloads http(s) URLs only"));
        return;
      }
      const onResponse = (res: import("node:http").IncomingMessage) =>
        resolve({ status: res.statusCode ?? 0, contentType: res.headers["content-type"] ?? null, body: res });
      const common = { signal, ...(options.lookup ? { lookup: options.lookup } : {}) };
      const request = secure
        ? httpsGet(url, { ...common, ...(options.ca ? { ca: options.ca } : {}) }, onResponse)
        : httpGet(url, common, onResponse);
      request.on("error", reject);
    });
}
