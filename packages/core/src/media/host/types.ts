/**
 * The media host contract: media a platform fetches by URL (Teams, Google Chat, LINE, MMS)
 * is put on a host, which answers with a link and the time the link stops working.
 */

/** Media to put on a host; a `LoadedMedia` is one as it is. */
export interface MediaToHost {
  /** MIME type the host serves the bytes as. */
  mimeType: string;
  /** File name offered when the item downloads (never part of the link). */
  fileName: string;
  /** Size in bytes when known: a stream with a different count fails and nothing is kept. */
  size?: number;
  /**
   * The bytes, as a stream the host reads once, chunk by chunk, never whole. A function
   * rather than a stream so that a loaded item is put as it is and a host may re-read on retry.
   */
  open(): AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;
}

/** Options of one {@link MediaHost.put}. */
export interface PutMediaOptions {
  /** How long the link works, in milliseconds; the host's default when absent. */
  ttlMs?: number;
  /** Cancels the upload; nothing is kept. */
  signal?: AbortSignal;
}

/** Media on a host. */
export interface HostedMedia {
  /** The host's name for the item, for {@link MediaHost.remove}: opaque, random, never derived from the item. */
  key: string;
  /** The link a platform fetches. It names nothing of the item's origin; its signature is a secret. */
  url: string;
  /** When the link stops working, in milliseconds since the Unix epoch. */
  expiresAt: number;
}

/** Where media a platform fetches by URL is put. */
export interface MediaHost {
  /** Store the item, streamed, and answer with its link and expiry. */
  put(media: MediaToHost, options?: PutMediaOptions): Promise<HostedMedia>;
  /** Delete an item before it expires; removing an unknown or expired key is not an error. */
  remove(key: string): Promise<void>;
}

/** What a {@link MediaStore} keeps beside the bytes. */
export interface HostedItemInfo {
  /** MIME type served as `Content-Type`. */
  mimeType: string;
  /** File name for `Content-Disposition`. */
  fileName: string;
  /** When the item may be deleted, in milliseconds since the Unix epoch. */
  expiresAt: number;
}

/** A stored item: what was kept with it and its size. */
export interface HostedItem extends HostedItemInfo {
  /** Size in bytes. */
  size: number;
}

/** Bytes `start` to `end`, both inclusive. */
export interface ByteRange {
  /** First byte. */
  start: number;
  /** Last byte (inclusive). */
  end: number;
}

/**
 * Where the self-hosted media host keeps bytes: a directory by default
 * ({@link createDirectoryMediaStore}); implement it to keep them elsewhere. Keys are
 * checked by the host (URL-safe base64, no dots or slashes) before any store call.
 */
export interface MediaStore {
  /**
   * Keep `bytes` under `key`, streamed. When `bytes` throws, nothing readable stays under
   * `key` (the description may stay, so that the sweeper finds what is left).
   */
  put(key: string, info: HostedItemInfo, bytes: AsyncIterable<Uint8Array>): Promise<void>;
  /** The item under `key` once its bytes are complete, else `undefined`. */
  get(key: string): Promise<HostedItem | undefined>;
  /** The bytes of `range` (the whole item without one); it must yield exactly that many. */
  read(key: string, range?: ByteRange): AsyncIterable<Uint8Array>;
  /** Delete the item and anything left of an unfinished put; no error when there is none. */
  delete(key: string): Promise<void>;
  /** Every key with its expiry, unfinished puts included: what the sweeper looks through. */
  list(): AsyncIterable<{ key: string; expiresAt: number }>;
}
