/**
 * The content repository: uploaded files by `mxc://` URI, and what the emulator reads from
 * their bytes to check an event's `info` (type from the magic bytes, PNG and GIF dimensions).
 */
import { createHash, randomBytes } from "node:crypto";
import { SERVER_NAME } from "./types.js";

/** One uploaded file. */
export interface StoredMedia {
  /** `mxc://server/id`. */
  uri: string;
  /** The upload's `Content-Type`. */
  contentType: string;
  /** `filename` of the upload, when given. */
  fileName?: string;
  /** The bytes. */
  data: Buffer;
  /** Hex sha256 of the bytes. */
  sha256: string;
}

/** Uploaded files. */
export class MediaRepository {
  private readonly files = new Map<string, StoredMedia>();

  /** Store bytes; returns the `mxc://` URI. */
  add(data: Buffer, contentType: string, fileName: string | undefined): string {
    const uri = `mxc://${SERVER_NAME}/${randomBytes(12).toString("base64url")}`;
    const sha256 = createHash("sha256").update(data).digest("hex");
    this.files.set(uri, { uri, contentType, data, sha256, ...(fileName !== undefined ? { fileName } : {}) });
    return uri;
  }

  /** A stored file by URI. */
  get(uri: string): StoredMedia | undefined {
    return this.files.get(uri);
  }
}

/** The MIME type the magic bytes name, when they name one this emulator knows. */
export function sniffType(data: Buffer): string | undefined {
  const ascii = (from: number, to: number) => data.subarray(from, to).toString("latin1");
  if (ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "GIF8") return "image/gif";
  if (ascii(0, 5) === "%PDF-") return "application/pdf";
  if (ascii(0, 4) === "OggS") return "audio/ogg";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "audio/wav";
  if (ascii(4, 8) === "ftyp") return "video/mp4";
  if (ascii(0, 3) === "ID3" || (data[0] === 0xff && ((data[1] ?? 0) & 0xe0) === 0xe0)) return "audio/mpeg";
  return undefined;
}

/** Width and height of a PNG or GIF (the formats whose header holds them at a fixed place). */
export function imageSize(data: Buffer): { w: number; h: number } | undefined {
  const type = sniffType(data);
  if (type === "image/png" && data.length >= 24)
    return { w: data.readUInt32BE(16), h: data.readUInt32BE(20) };
  if (type === "image/gif" && data.length >= 10) return { w: data.readUInt16LE(6), h: data.readUInt16LE(8) };
  return undefined;
}
