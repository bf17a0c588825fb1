/**
 * The MIME types `mediaFromMcpArguments` accepts (spec: mcp.md), checked on the declared
 * type and again on the type sniffed from the bytes.
 */
import { sameFormat } from "./declared-type.js";

/** Images accepted in `images`, with the extension a file without a name gets. */
export const MCP_IMAGE_MIME_TYPES: Readonly<Record<string, string>> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

/** Files accepted in `files` (documents, audio, video, archives), with their default extension. */
export const MCP_FILE_MIME_TYPES: Readonly<Record<string, string>> = {
  "application/pdf": "pdf",
  "text/plain": "txt",
  "text/markdown": "md",
  "text/html": "html",
  "text/csv": "csv",
  "application/json": "json",
  "audio/mpeg": "mp3",
  "audio/wav": "wav",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/aac": "aac",
  "audio/flac": "flac",
  "audio/opus": "opus",
  "video/mp4": "mp4",
  "video/webm": "webm",
  "video/quicktime": "mov",
  "video/x-msvideo": "avi",
  "application/zip": "zip",
  "application/gzip": "gz",
  "application/x-tar": "tar",
  "application/x-compressed-tar": "tgz",
};

/** Common aliases, mapped onto the allowlist's names. */
const ALIASES: Record<string, string> = {
  "image/jpg": "image/jpeg",
  "audio/mp3": "audio/mpeg",
  "audio/x-wav": "audio/wav",
  "audio/wave": "audio/wav",
  "audio/vnd.wave": "audio/wav",
  "audio/x-flac": "audio/flac",
  "audio/x-m4a": "audio/mp4",
  "audio/m4a": "audio/mp4",
  "audio/x-aac": "audio/aac",
  "application/x-zip-compressed": "application/zip",
  "application/x-gzip": "application/gzip",
  "application/x-gtar-compressed": "application/x-compressed-tar",
  "video/vnd.avi": "video/x-msvideo",
  "video/avi": "video/x-msvideo",
  "video/msvideo": "video/x-msvideo",
};

/** Lower-cased type without parameters, aliases resolved. */
export function canonicalMime(mimeType: string): string {
  const bare = mimeType.split(";")[0]?.trim().toLowerCase() ?? "";
  return ALIASES[bare] ?? bare;
}

/** Extensions that name an allowlisted type, beyond each type's default extension. */
const EXTRA_EXTENSIONS: Record<string, string> = {
  jpeg: "image/jpeg",
  htm: "text/html",
  markdown: "text/markdown",
  text: "text/plain",
  mp4: "video/mp4",
  m4v: "video/mp4",
};

/**
 * The file name to show for bytes of `mimeType`: as given when its extension names that
 * type (`.mp4` also fits `audio/mp4`), otherwise with the type's extension appended, so a
 * PDF named `invoice.exe` is shown as `invoice.exe.pdf`.
 */
export function nameForType(
  fileName: string,
  mimeType: string,
  allowed: Readonly<Record<string, string>>,
): string {
  const extension = /\.([^.]+)$/.exec(fileName)?.[1]?.toLowerCase();
  const byDefault = Object.entries({ ...MCP_IMAGE_MIME_TYPES, ...MCP_FILE_MIME_TYPES }).find(
    ([, ext]) => ext === extension,
  )?.[0];
  const named = extension === undefined ? undefined : (EXTRA_EXTENSIONS[extension] ?? byDefault);
  if (named !== undefined && (sameFormat(named, mimeType) || named.split("/")[1] === mimeType.split("/")[1]))
    return fileName;
  return `${fileName}.${allowed[mimeType] ?? "bin"}`;
}
