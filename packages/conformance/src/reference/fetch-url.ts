/**
 * How the reference platform downloads media handed to it by URL, as a real platform's
 * servers do: https only, no redirect followed, trusting the fixture certificate and
 * resolving the fixture host names (the suite's media server), every URL recorded.
 */
import { get } from "node:https";
import type { LookupFunction } from "node:net";

/** Options of {@link downloadUrl}. */
export interface UrlDownloadOptions {
  /** PEM certificate(s) trusted for the download (the fixture server's). */
  ca?: string;
  /** Resolver for the URL's host name. */
  lookup?: LookupFunction;
}

/** The whole body of `url` when it answers 200, else an error naming the answer. */
export function downloadUrl(url: string, options: UrlDownloadOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    if (!url.startsWith("https://")) {
      reject(new Error("the platform fetches https URLs only"));
      return;
    }
    const request = get(url, { ...options }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`the URL answered HTTP ${response.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Buffer.concat(chunks)));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}
