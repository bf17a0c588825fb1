/**
 * MIME normalization, extension tables and the media kind of a MIME type.
 */
import type { MediaKind } from "../types.js";

/** Generic types that say nothing about the content. */
const GENERIC = new Set(["application/octet-stream", "binary/octet-stream", "application/unknown"]);

/** Aliases producers use for the same type. */
const ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "audio/mp3": "audio/mpeg",
  "audio/x-mp3": "audio/mpeg",
  "audio/opus": "audio/ogg",
  "audio/x-opus+ogg": "audio/ogg",
  "audio/vorbis": "audio/ogg",
  "audio/m4a": "audio/mp4",
  "audio/x-m4a": "audio/mp4",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "application/x-pdf": "application/pdf",
};

/** Extension → MIME type for files whose bytes say nothing (text) or as a fallback. */
const BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  svg: "image/svg+xml",
  heic: "image/heic",
  avif: "image/avif",
  mp4: "video/mp4",
  m4v: "video/mp4",
  mov: "video/quicktime",
  webm: "video/webm",
  mkv: "video/x-matroska",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  wav: "audio/wav",
  flac: "audio/flac",
  pdf: "application/pdf",
  zip: "application/zip",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** Preferred extension of a MIME type, for naming files that have none. */
const EXTENSION_OF: Record<string, string> = {
  "image/jpeg": "jpg",
  "audio/ogg": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp4": "m4a",
  "video/mp4": "mp4",
  "text/plain": "txt",
};

/**
 * Lower-cased `type/subtype` without parameters or whitespace, with common aliases mapped
 * (`" Audio/Ogg; codecs=opus "` → `audio/ogg`, `image/jpg` → `image/jpeg`). Returns
 * `undefined` for an empty or malformed value.
 */
export function normalizeMimeType(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const bare = value.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(bare)) return undefined;
  return ALIASES[bare] ?? bare;
}

/** Whether a normalized MIME type says nothing about the content (`application/octet-stream`). */
export function isGenericMimeType(mime: string): boolean {
  return GENERIC.has(mime);
}

/** A file name's extension (after its last dot), if it has one: none for `.hidden` or `name.`. */
export function fileExtension(fileName: string): string | undefined {
  const dot = fileName.lastIndexOf(".");
  return dot <= 0 || dot === fileName.length - 1 ? undefined : fileName.slice(dot + 1);
}

/** The MIME type a file name's extension suggests, if any. */
export function mimeTypeFromFileName(fileName: string): string | undefined {
  const extension = fileExtension(fileName);
  return extension === undefined ? undefined : BY_EXTENSION[extension.toLowerCase()];
}

/** A file extension for a MIME type (`image/png` → `png`), or `bin`. */
export function extensionForMimeType(mime: string): string {
  const known = EXTENSION_OF[mime];
  if (known !== undefined) return known;
  const entry = Object.entries(BY_EXTENSION).find(([, value]) => value === mime);
  return entry?.[0] ?? "bin";
}

/**
 * The media kind of a normalized MIME type: GIF is `animation`; other raster images are
 * `image` (SVG is a `document`: it is markup, not a picture platforms render); `video/*`,
 * `audio/*`; everything else, executables and archives included, is a `document`.
 */
export function kindOfMimeType(mime: string): MediaKind {
  if (mime === "image/gif") return "animation";
  if (mime === "image/svg+xml") return "document";
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  return "document";
}
