/**
 * Answering a request for hosted media, the same for a fetch-style handler and a Node
 * listener: GET and HEAD only; the path is exactly `<prefix><key>`, nothing else (no
 * listing, no other files); the link's signature is checked before the store is asked
 * anything; one byte range at most. Every answer says `nosniff` and runs nothing; only
 * images, audio and video a platform previews are served inline, the rest as attachments.
 */
import { requestedRange } from "./byte-range.js";
import { contentDisposition } from "./disposition.js";
import { type LinkSigner, MEDIA_KEY } from "./signed-link.js";
import type { MediaStore } from "./types.js";

/** What the handler needs of the host. */
export interface ServeContext {
  /** Where the bytes are. */
  store: MediaStore;
  /** Checks links. */
  signer: LinkSigner;
  /** Current time, ms since the epoch. */
  now(): number;
  /** Path prefixes a key may follow: `/` (mounted with the prefix removed) and the public URL's path. */
  prefixes: readonly string[];
}

/** The parts of a request the host reads. */
export interface HostedRequest {
  /** HTTP method. */
  method: string;
  /** The request's URL; only its path and query are read. */
  url: URL;
  /** The `Range` header, if any. */
  range: string | null;
}

/** An answer, before it is written as a `Response` or to a Node response. */
export interface HostedAnswer {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Record<string, string>;
  /** The bytes to send, when there are any (never for HEAD). */
  body?: AsyncIterable<Uint8Array>;
}

const SAFE: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Referrer-Policy": "no-referrer",
};

function refuse(status: number, extra: Record<string, string> = {}): HostedAnswer {
  return { status, headers: { ...SAFE, "Cache-Control": "no-store", ...extra } };
}

/** The key a path names, when it is exactly one of the prefixes followed by a key. */
function keyOf(pathname: string, prefixes: readonly string[]): string | undefined {
  for (const prefix of prefixes) {
    const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : "";
    if (MEDIA_KEY.test(rest)) return rest;
  }
  return undefined;
}

/** Answer one request. */
export async function answerHosted(context: ServeContext, request: HostedRequest): Promise<HostedAnswer> {
  if (request.method !== "GET" && request.method !== "HEAD") return refuse(405, { Allow: "GET, HEAD" });
  const key = keyOf(request.url.pathname, context.prefixes);
  if (key === undefined) return refuse(404);
  const now = context.now();
  const link = context.signer.check(key, request.url.searchParams, now);
  if (!link.ok) return refuse(link.why === "expired" ? 410 : 403);
  const item = await context.store.get(key);
  if (item === undefined) return refuse(404);
  if (now >= item.expiresAt) return refuse(410);
  const headers: Record<string, string> = {
    ...SAFE,
    "Content-Type": item.mimeType,
    "Accept-Ranges": "bytes",
    "Cache-Control": `private, max-age=${Math.max(0, Math.floor((link.expiresAt - now) / 1000))}`,
  };
  const disposition = contentDisposition(item.mimeType, item.fileName);
  if (disposition !== undefined) headers["Content-Disposition"] = disposition;
  const range = requestedRange(request.range, item.size);
  if (range === "unsatisfiable")
    return refuse(416, { "Content-Range": `bytes */${item.size}`, "Accept-Ranges": "bytes" });
  const span = range ?? { start: 0, end: item.size - 1 };
  headers["Content-Length"] = String(span.end - span.start + 1);
  if (range !== undefined) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${item.size}`;
  const status = range === undefined ? 200 : 206;
  if (request.method === "HEAD" || item.size === 0) return { status, headers };
  return { status, headers, body: context.store.read(key, range) };
}
