/**
 * What the emulator learns from a file's first bytes, as Telegram does: it ignores the
 * part's content-type (grammY always sends application/octet-stream) and looks at the data.
 */
import { extname } from "node:path";

/** Type and, for images, dimensions. */
export interface Sniffed {
  /** MIME type from the bytes, else from the file name, else application/octet-stream. */
  mimeType: string;
  /** Image width in pixels, when readable from the header. */
  width?: number;
  /** Image height in pixels, when readable from the header. */
  height?: number;
}

const BY_EXTENSION: Record<string, string> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
  ".html": "text/html",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".mp4": "video/mp4",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".oga": "audio/ogg",
  ".opus": "audio/ogg",
  ".m4a": "audio/mp4",
  ".wav": "audio/wav",
  ".bin": "application/octet-stream",
};

const ascii = (head: Buffer, at: number, text: string) =>
  head.length >= at + text.length && head.toString("latin1", at, at + text.length) === text;

/** Sniff a file from its first bytes (and its name as a fallback). */
export function sniff(head: Buffer, fileName = ""): Sniffed {
  if (head.length >= 24 && head.readUInt32BE(0) === 0x89504e47) {
    return { mimeType: "image/png", width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  if (ascii(head, 0, "GIF8") && head.length >= 10) {
    return { mimeType: "image/gif", width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpeg(head);
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WEBP")) return { mimeType: "image/webp" };
  if (ascii(head, 0, "RIFF") && ascii(head, 8, "WAVE")) return { mimeType: "audio/wav" };
  if (ascii(head, 0, "OggS")) return { mimeType: "audio/ogg" };
  if (ascii(head, 0, "ID3") || (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) {
    return { mimeType: "audio/mpeg" };
  }
  if (ascii(head, 4, "ftyp")) return { mimeType: ascii(head, 8, "M4A") ? "audio/mp4" : "video/mp4" };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { mimeType: "video/webm" };
  if (ascii(head, 0, "%PDF")) return { mimeType: "application/pdf" };
  if (ascii(head, 0, "PK\u0003\u0004")) return { mimeType: "application/zip" };
  return { mimeType: BY_EXTENSION[extname(fileName).toLowerCase()] ?? "application/octet-stream" };
}

function jpeg(head: Buffer): Sniffed {
  let at = 2;
  while (at + 9 < head.length) {
    if (head[at] !== 0xff) break;
    const marker = head[at + 1] ?? 0;
    const length = head.readUInt16BE(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      return { mimeType: "image/jpeg", height: head.readUInt16BE(at + 5), width: head.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return { mimeType: "image/jpeg" };
}
