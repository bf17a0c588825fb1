/**
 * How a media item travels: as its https URL when Telegram can fetch it itself (within
 * `capabilities.media.byUrl` and Telegram's per-method rules), else as a streamed upload
 * that re-opens the source on every attempt (nothing is held in memory).
 */
import { type Capabilities, type LoadedMedia, type MediaKind, multipartFileName } from "@outbox/core";
import { InputFile } from "grammy";

const DOCUMENT_BY_URL = new Set(["image/gif", "application/pdf", "application/zip"]);
const VOICE_BY_URL_MAX = 1024 * 1024;

/** Whether Telegram may be handed the URL of this item instead of its bytes. */
export function canSendByUrl(
  media: LoadedMedia,
  kind: MediaKind | "voice",
  capabilities: Capabilities,
): boolean {
  const byUrl = capabilities.media.byUrl;
  if (!byUrl || media.source.type !== "url" || !media.source.url.startsWith("https://")) return false;
  const limit = kind === "voice" ? VOICE_BY_URL_MAX : (byUrl[kind] ?? byUrl.default);
  if (media.size > limit) return false;
  if (kind === "document") return DOCUMENT_BY_URL.has(media.mimeType);
  if (kind === "voice") return media.mimeType === "audio/ogg";
  return true;
}

/**
 * The value of a media parameter: the URL, or an upload streamed from `open()`. grammY writes
 * an InputFile's name unquoted after `filename=`, so the name is handed over already quoted:
 * unquoted, a space ends the value for strict parsers and a `;` starts a new parameter for
 * Telegram's (`chart.png; name=chat_id` would rename the part).
 */
export function mediaInput(media: LoadedMedia, upload: boolean): string | InputFile {
  if (!upload && media.source.type === "url") return media.source.url;
  return new InputFile(() => media.open(), multipartFileName(media.fileName));
}
