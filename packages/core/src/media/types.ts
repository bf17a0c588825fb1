/**
 * Media loading types (spec: media.md). Names here are public API.
 */
import type { LookupFunction } from "node:net";
import type { Dispatcher } from "undici";
import type { MediaHost } from "./host/types.js";

/** What a media item is, for choosing the platform operation. */
export type MediaKind = "image" | "animation" | "video" | "audio" | "document";

/** The policy every media reference is loaded under. */
export interface MediaPolicy {
  /** Directories local paths may come from. Default: `[workspaceDir]`. */
  localRoots?: string[];
  /** Base for relative paths. Default: `process.cwd()`. */
  workspaceDir?: string;
  /** Largest item in bytes; the adapter lowers it to the platform's limit. */
  maxBytes?: number;
  /** Whole-fetch timeout in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /** Redirects followed at most. Default 3. */
  maxRedirects?: number;
  /** `dns.lookup`-compatible resolver; injectable for tests. */
  lookup?: LookupFunction;
  /** Host names exempt from the public-address rule (e.g. a self-hosted media server). */
  allowHosts?: string[];
  /** undici dispatcher to connect through, for tests (its connections are still pinned and checked). */
  dispatcher?: Dispatcher;
  /** Cancels loading. */
  signal?: AbortSignal;
  /**
   * Hand the platform an item's own https URL to fetch, instead of uploading its bytes, where
   * the platform fetches URLs (`capabilities.media.byUrl`) and the item fits its URL limit.
   * The URL is still loaded first under this policy (public address, every redirect checked,
   * the type sniffed from its first bytes, the size from its headers), so the receipt says
   * what the platform was given. Default `false`: every item is uploaded.
   */
  passThrough?: boolean;
  /**
   * Where to put media that can only travel as a link (a platform that takes no upload for
   * it, or a file it cannot attach): `createSelfHostedMedia`, or `createS3MediaHost` of
   * `@outbox/media-s3`. Without it such an item fails, and the receipt names this option.
   */
  host?: MediaHost;
}

/**
 * How one media item travels (a receipt message's `media`): `upload` (its bytes),
 * `url` (its own https URL, fetched by the platform: `passThrough`), `hosted` (put on the
 * media host, whose link the platform fetches), `hosted-link` (put on the media host, its
 * link in the text), `link` (its own URL in the text: too large to upload).
 */
export type MediaTravel = "upload" | "url" | "hosted" | "hosted-link" | "link";

/** Where loaded media came from. */
export type MediaSource = { type: "url"; url: string } | { type: "file"; path: string } | { type: "inline" };

/** A media item that passed the policy: metadata known, bytes re-readable. */
export interface LoadedMedia {
  /** What the item is, for choosing the platform operation. */
  kind: MediaKind;
  /** Normalized MIME type, sniffed from the bytes first, then extension, then HTTP header. */
  mimeType: string;
  /** File name to present. */
  fileName: string;
  /** Size in bytes. */
  size: number;
  /** Where the bytes come from; a `url` source may be handed to a platform that fetches URLs itself. */
  source: MediaSource;
  /** Image or video width in pixels, when cheaply known from the header (an MP4 whose `moov` leads). */
  width?: number;
  /** Image or video height in pixels, when cheaply known from the header. */
  height?: number;
  /** Audio/video duration in milliseconds, when cheaply known (OGG/Opus; MP4 whose `moov` leads). */
  durationMs?: number;
  /** A fresh stream of the bytes on every call (a retry re-reads the source). */
  open(): AsyncIterable<Uint8Array>;
}
