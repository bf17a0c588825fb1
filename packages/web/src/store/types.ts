/**
 * What the web inbox stores: messages as events in a conversation's log (replayed to a
 * browser that reconnects with `Last-Event-ID`) and media by content hash.
 */
import type { CanvasEmbed } from "@outbox/core";

/** What an article shows (`data-kind` on the page). */
export type WebMessageKind = "text" | "image" | "video" | "audio" | "voice" | "document" | "album" | "embed";

/** What one media figure shows (`data-kind` on the figure). */
export type WebMediaKind = "image" | "video" | "audio" | "voice" | "document";

/** One media item of a message, served at `media/<sha256>`. */
export interface WebMedia {
  /** How the page shows it. */
  kind: WebMediaKind;
  /** File name shown and offered on download. */
  fileName: string;
  /** MIME type sent as `Content-Type`. */
  mimeType: string;
  /** Hex sha256 of the bytes: the media's address. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** Duration in milliseconds of a voice note or audio, when known. */
  durationMs?: number;
  /** Image width in pixels, when known. */
  width?: number;
  /** Image height in pixels, when known. */
  height?: number;
}

/** One message of a conversation. */
export interface WebMessage {
  /** Message id (what receipts list; what replies reference). */
  id: string;
  /** Conversation (the `Target.to` it was sent to). */
  conversation: string;
  /** Who wrote it: the assistant (delivered by the adapter) or the person (seeded inbound messages). */
  author: "assistant" | "user";
  /** What it shows. */
  kind: WebMessageKind;
  /** Sanitized HTML of the text, or of the caption of a media message or album. */
  html?: string;
  /** Media: one for a media message, several for an album. */
  media?: WebMedia[];
  /** Id of the message this one replies to. */
  replyTo?: string;
  /** Thread the message was posted in. */
  thread?: string;
  /** The canvas of an `embed` message. */
  embed?: CanvasEmbed["preview"];
  /** When it was stored (ISO 8601). */
  createdAt: string;
}

/** A message as appended to the log, with the event id the store gave it. */
export interface WebEvent {
  /** Event id: opaque to the server, ordered by the store; sent as the SSE `id:`. */
  id: string;
  /** The message. */
  message: WebMessage;
}

/** Stored media bytes with their type. */
export interface StoredMedia {
  /** MIME type. */
  mimeType: string;
  /** File name offered when the media downloads (the first name it was stored under). */
  fileName: string;
  /** The bytes. */
  data: Uint8Array;
}

/** The bytes of stored media from `start` to `end`, both inclusive. */
export interface MediaRange {
  /** First byte. */
  start: number;
  /** Last byte (inclusive). */
  end: number;
}

/**
 * Stored media handed out as a stream: the inbox asks only for the bytes it sends (a
 * `Range` request for 100 bytes of a 50 MB video reads 100 bytes), so serving never holds
 * a whole file in memory.
 */
export interface StreamedMedia {
  /** MIME type. */
  mimeType: string;
  /** File name offered when the media downloads. */
  fileName: string;
  /** Size of the whole item in bytes. */
  size: number;
  /**
   * The bytes of `range` (the whole item without one), e.g.
   * `Readable.toWeb(createReadStream(path, range))` or an object store's ranged GET. It must
   * yield exactly that many bytes; a shorter stream ends the response with an error, extra
   * bytes are not sent.
   */
  open(range?: MediaRange): ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
}

/**
 * Where the inbox keeps messages and media; in memory by default
 * ({@link createMemoryWebStore}). Implement it to keep them in your database. One store
 * is shared by the adapter (which appends) and the inbox server (which lists and
 * subscribes).
 */
export interface WebMessageStore {
  /**
   * Append a message and return its event. Idempotent on `message.id` within a
   * conversation: appending an id already stored returns the stored event unchanged.
   */
  append(message: WebMessage): Promise<WebEvent>;
  /** Events of a conversation in order, only those after event `after` when given. */
  list(conversation: string, after?: string): Promise<WebEvent[]>;
  /** One message of a conversation by id. */
  get(conversation: string, id: string): Promise<WebMessage | undefined>;
  /** Keep media bytes under their sha256, readable from this conversation. */
  putMedia(conversation: string, sha256: string, media: StoredMedia): Promise<void>;
  /**
   * Media a conversation holds by sha256; `undefined` when that conversation never stored it.
   * A store backed by disk or an object store returns {@link StreamedMedia} (a size and a
   * stream of the bytes asked for), so a range request reads only its range; an in-memory
   * store may return {@link StoredMedia} with the bytes.
   */
  getMedia(conversation: string, sha256: string): Promise<StoredMedia | StreamedMedia | undefined>;
  /**
   * Call `listener` with every event appended to the conversation from now on, until the
   * returned function is called. Across processes, back it with your database's
   * notifications.
   */
  subscribe(conversation: string, listener: (event: WebEvent) => void): () => void;
}
