/**
 * Resolves a media parameter the way Telegram does: `attach://<part>` (an upload in the
 * same request), an http(s) URL (Telegram downloads it), or a file_id sent before. Applies
 * the upload limits (50 MB multipart, 10 MB photo; by URL 5 MB photo, 20 MB other) and the
 * photo rules (width + height ≤ 10000, ratio ≤ 20).
 */
import { createHash, randomUUID } from "node:crypto";
import { basename } from "node:path";
import { ApiError, badRequest } from "./api-error.js";
import type { UploadedFile } from "./body.js";
import { sniff } from "./sniff.js";
import type { FetchedUrl } from "./types.js";

/** The media method fields. */
export type MediaField = "photo" | "animation" | "video" | "audio" | "voice" | "document";

/** A file Telegram holds. */
export interface StoredFile {
  /** Id to send it again with. */
  fileId: string;
  /** Stable unique id. */
  uniqueId: string;
  /** Name as uploaded or taken from the URL. */
  fileName: string;
  /** Bytes. */
  size: number;
  /** Hex SHA-256. */
  sha256: string;
  /** Type derived from the bytes. */
  mimeType: string;
  /** Image width, when known. */
  width?: number;
  /** Image height, when known. */
  height?: number;
}

/** Where media comes from while one request is handled. */
export interface MediaContext {
  /** File parts of the request. */
  files: Map<string, UploadedFile>;
  /** Files sent before, by file_id. */
  known: Map<string, StoredFile>;
  /** Downloads a URL. */
  fetchUrl: (url: string, signal: AbortSignal) => Promise<FetchedUrl>;
  /** Called for every URL download attempt. */
  onFetch: (url: string) => void;
}

const MB = 1024 * 1024;
const UPLOAD_LIMIT = 50 * MB;
const PHOTO_UPLOAD_LIMIT = 10 * MB;
const URL_LIMIT = 20 * MB;
const PHOTO_URL_LIMIT = 5 * MB;
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const DOCUMENT_URL_TYPES = new Set(["image/gif", "application/pdf", "application/zip"]);

/** Resolve one media value for a field. */
export async function resolveMedia(
  value: unknown,
  field: MediaField,
  ctx: MediaContext,
): Promise<StoredFile> {
  if (typeof value !== "string" || value === "") throw badRequest(`there is no ${field} in the request`);
  let file: StoredFile;
  if (value.startsWith("attach://")) {
    const upload = ctx.files.get(value.slice("attach://".length));
    if (!upload) throw badRequest("wrong file identifier/HTTP URL specified");
    file = fromUpload(upload, field);
  } else if (/^https?:\/\//i.test(value)) {
    file = await download(value, field, ctx);
  } else {
    const known = ctx.known.get(value);
    if (!known) throw badRequest("wrong file identifier/HTTP URL specified");
    return known;
  }
  if (field === "photo") checkPhoto(file);
  ctx.known.set(file.fileId, file);
  return file;
}

/** A media value sent as a file part under the field's own name (no attach://). */
export function directUpload(field: MediaField, files: Map<string, UploadedFile>): string | undefined {
  return files.has(field) ? `attach://${field}` : undefined;
}

function fromUpload(upload: UploadedFile, field: MediaField): StoredFile {
  if (upload.size > UPLOAD_LIMIT) throw new ApiError(413, "Request Entity Too Large");
  if (upload.size === 0) throw badRequest("file must be non-empty");
  if (field === "photo" && upload.size > PHOTO_UPLOAD_LIMIT) throw badRequest("PHOTO_SAVE_FILE_INVALID");
  return store(upload.fileName, upload.size, upload.sha256, upload.head);
}

async function download(url: string, field: MediaField, ctx: MediaContext): Promise<StoredFile> {
  const limit = field === "photo" ? PHOTO_URL_LIMIT : URL_LIMIT;
  const failed = badRequest("failed to get HTTP URL content");
  const controller = new AbortController();
  ctx.onFetch(url);
  let response: FetchedUrl;
  try {
    response = await ctx.fetchUrl(url, controller.signal);
  } catch {
    throw failed;
  }
  if (response.status < 200 || response.status > 299 || !response.body) throw failed;
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.length;
      if (size > limit) break;
      hash.update(chunk);
      if (size - chunk.length < 64 * 1024) head.push(Buffer.from(chunk));
    }
  } catch {
    throw failed;
  } finally {
    controller.abort();
  }
  if (size > limit || size === 0) throw failed;
  const file = store(
    basename(new URL(url).pathname) || "file",
    size,
    hash.digest("hex"),
    Buffer.concat(head),
  );
  if (field === "document" && !DOCUMENT_URL_TYPES.has(file.mimeType)) {
    throw badRequest("wrong type of the web page content");
  }
  if (field === "voice" && (file.mimeType !== "audio/ogg" || size > MB)) {
    throw badRequest("wrong type of the web page content");
  }
  return file;
}

function store(fileName: string, size: number, sha256: string, head: Buffer): StoredFile {
  const sniffed = sniff(head, fileName);
  return {
    fileId: `emu-${randomUUID()}`,
    uniqueId: sha256.slice(0, 16),
    fileName,
    size,
    sha256,
    mimeType: sniffed.mimeType,
    ...(sniffed.width !== undefined && sniffed.height !== undefined
      ? { width: sniffed.width, height: sniffed.height }
      : {}),
  };
}

function checkPhoto(file: StoredFile): void {
  if (!IMAGE_TYPES.has(file.mimeType)) throw badRequest("IMAGE_PROCESS_FAILED");
  const { width, height } = file;
  if (width === undefined || height === undefined) return;
  const ratio = Math.max(width, height) / Math.max(1, Math.min(width, height));
  if (width + height > 10_000 || ratio > 20) throw badRequest("PHOTO_INVALID_DIMENSIONS");
}
