/**
 * The self-hosted media host: Outbox keeps the bytes (in a directory or a {@link MediaStore})
 * and serves them itself under signed, expiring links, through a handler the integrator
 * mounts in their own server or starts alone ({@link startMediaHost}). A sweeper deletes
 * what has expired.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Clock } from "../../adapter/types.js";
import { systemClock } from "../../engine/clock.js";
import { DEFAULT_MAX_BYTES } from "../policy.js";
import { createDirectoryMediaStore } from "./directory-store.js";
import { positiveMs, prepareMediaPut, putFailure } from "./prepare-put.js";
import { answerFetch, answerNode } from "./respond.js";
import type { ServeContext } from "./serve-hosted.js";
import { LinkSigner, MEDIA_KEY } from "./signed-link.js";
import type { HostedMedia, MediaHost, MediaStore, MediaToHost, PutMediaOptions } from "./types.js";

/** Default link lifetime: one day. */
export const DEFAULT_HOSTED_TTL_MS = 24 * 60 * 60 * 1000;

/** Default time between two sweeps: ten minutes. */
export const DEFAULT_SWEEP_EVERY_MS = 10 * 60 * 1000;

/** Options of {@link createSelfHostedMedia}. */
export interface SelfHostedMediaOptions {
  /**
   * The public URL the handler answers at, e.g. `https://bot.example.com/media/`: a link is
   * this URL followed by the key and the signed query. Platforms fetch only https.
   */
  publicUrl: string;
  /**
   * Signs the links: at least 32 bytes, secret, and the same across restarts and instances
   * (a link signed with another secret is refused).
   */
  secret: string | Uint8Array;
  /** Where the bytes are kept: a directory of the host's own (created when missing) or a {@link MediaStore}. */
  store: string | MediaStore;
  /** How long a link works unless `put` says otherwise, in milliseconds. Default one day. */
  ttlMs?: number;
  /** Largest item accepted, in bytes. Default 100 MiB (`DEFAULT_MAX_BYTES`). */
  maxBytes?: number;
  /** Milliseconds between two sweeps of expired items; the first runs at once. 0: no sweeper (call `sweep()`). Default ten minutes. */
  sweepEveryMs?: number;
  /** Told of a sweep that failed (the next one tries again). Default: none. */
  onSweepError?: (error: unknown) => void;
  /** Time (`now()` in milliseconds since the Unix epoch: links carry absolute times) and the sweeper's waits. Default the system clock. */
  clock?: Clock;
}

/** A running self-hosted media host. */
export interface SelfHostedMedia extends MediaHost {
  /** The handler as a fetch-style function (`Request` in, `Response` out): mount it in Hono, Bun, Deno or any fetch server. */
  fetch(request: Request): Promise<Response>;
  /** The handler as a Node request listener, for `http.createServer` or Express' `app.use("/media", listener)`. */
  listener(request: IncomingMessage, response: ServerResponse): void;
  /** Delete every expired item now; resolves with how many were deleted. */
  sweep(): Promise<number>;
  /** Stop the sweeper (items and links stay). */
  close(): void;
}

/** The public URL as a base ending in `/`; throws for anything else than a plain http(s) URL. */
function baseUrl(publicUrl: string): URL {
  const url = URL.canParse(publicUrl) ? new URL(publicUrl) : undefined;
  if (
    url === undefined ||
    !/^https?:$/.test(url.protocol) ||
    url.search ||
    url.hash ||
    url.username ||
    url.password
  )
    throw new TypeError(
      `The media host's publicUrl must be an http(s) URL without query, fragment or credentials, e.g. "https://bot.example.com/media/"; got ${JSON.stringify(publicUrl)}.`,
    );
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Create a self-hosted media host (see {@link SelfHostedMediaOptions}). */
export function createSelfHostedMedia(options: SelfHostedMediaOptions): SelfHostedMedia {
  const base = baseUrl(options.publicUrl);
  const signer = new LinkSigner(options.secret);
  const store = typeof options.store === "string" ? createDirectoryMediaStore(options.store) : options.store;
  const clock = options.clock ?? systemClock;
  const defaultTtl = positiveMs("ttlMs", options.ttlMs ?? DEFAULT_HOSTED_TTL_MS);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const context: ServeContext = { store, signer, now: () => clock.now(), prefixes: ["/", base.pathname] };

  async function put(media: MediaToHost, putOptions: PutMediaOptions = {}): Promise<HostedMedia> {
    const { key, mimeType, fileName, expiresAt, bytes } = prepareMediaPut(media, putOptions, {
      defaultTtlMs: defaultTtl,
      maxBytes,
      now: clock.now(),
    });
    try {
      await store.put(key, { mimeType, fileName, expiresAt }, bytes);
    } catch (error) {
      await store.delete(key).catch(() => undefined);
      throw putFailure(error, fileName, putOptions.signal);
    }
    return { key, url: `${base.href}${key}?${signer.query(key, expiresAt)}`, expiresAt };
  }

  async function sweep(): Promise<number> {
    const now = clock.now();
    let deleted = 0;
    for await (const item of store.list()) {
      if (now < item.expiresAt) continue;
      await store.delete(item.key);
      deleted += 1;
    }
    return deleted;
  }

  const stop = new AbortController();
  const every = options.sweepEveryMs ?? DEFAULT_SWEEP_EVERY_MS;
  if (every > 0)
    void (async () => {
      while (!stop.signal.aborted) {
        await sweep().catch((error: unknown) => options.onSweepError?.(error));
        await clock.sleep(every, stop.signal).catch(() => undefined);
      }
    })();

  return {
    put,
    remove: async (key) => (MEDIA_KEY.test(key) ? store.delete(key) : undefined),
    fetch: (request) => answerFetch(context, request),
    listener: (request, response) => void answerNode(context, request, response),
    sweep,
    close: () => stop.abort(),
  };
}
