/**
 * How a media item travels: as the URL the plan chose for it (its own with
 * `media.passThrough`) when Telegram's per-method rules let it fetch that, else as a streamed
 * upload that re-opens the source on every attempt (nothing is held in memory).
 */
import { type Capabilities, type LoadedMedia, type MediaKind, multipartFileName } from "@outbox/core";
import { InputFile } from "grammy";

const DOCUMENT_BY_URL = new Set(["image/gif", "application/pdf", "application/zip"]);
const VOICE_BY_URL_MAX = 1024 * 1024;

/**
 * The URL to hand Telegram for this item: the operation's `url` when Telegram's rules for
 * the method take it (documents only GIF, PDF and ZIP; voice notes only OGG up to 1 MB;
 * `capabilities.media.byUrl`), else `undefined` (upload the bytes).
 */
export function urlForTelegram(
  url: string | undefined,
  media: LoadedMedia,
  kind: MediaKind | "voice",
  capabilities: Capabilities,
): string | undefined {
  const byUrl = capabilities.media.byUrl;
  if (!byUrl || url === undefined || !url.startsWith("https://")) return undefined;
  const limit = kind === "voice" ? VOICE_BY_URL_MAX : (byUrl[kind] ?? byUrl.default);
  if (media.size > limit) return undefined;
  if (kind === "document" && !DOCUMENT_BY_URL.has(media.mimeType)) return undefined;
  if (kind === "voice" && media.mimeType !== "audio/ogg") return undefined;
  return url;
}

/**
 * The value of a media parameter: the URL, or an upload streamed from `open()`. grammY writes
 * an InputFile's name unquoted after `filename=`, so the name is handed over already quoted:
 * unquoted, a space ends the value for strict parsers and a `;` starts a new parameter for
 * Telegram's (`chart.png; name=chat_id` would rename the part).
 */
export function mediaInput(media: LoadedMedia, url: string | undefined): string | InputFile {
  if (url !== undefined) return url;
  return new InputFile(() => media.open(), multipartFileName(media.fileName));
}

/** The indexes of the items given a `url` that go as uploads instead, for `SentMessage.uploadedInstead`. */
export function uploadedInstead(
  items: Array<{ url?: string | undefined }>,
  sentUrl: (index: number) => boolean,
): number[] {
  return items.flatMap((item, index) => (item.url !== undefined && !sentUrl(index) ? [index] : []));
}
