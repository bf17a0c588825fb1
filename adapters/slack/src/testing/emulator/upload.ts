/**
 * The upload URL's receiving end: the body streams through a hash (never held whole), as raw
 * bytes or as a multipart body with one file part (what WebClient's `filesUploadV2` sends).
 * The byte count is checked against the length declared to `files.getUploadURLExternal`.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { sniffMimeType } from "./sniff.js";

/** What arrived at an upload URL. */
export interface ReceivedUpload {
  /** Bytes of the file (multipart framing excluded). */
  bytes: number;
  /** Hex sha256 of the file. */
  sha256: string;
  /** MIME type sniffed from the first bytes, else from the file name. */
  mimeType: string;
}

/** Read an upload body. Throws when a multipart body is malformed. */
export async function receiveUpload(req: IncomingMessage, fileName: string): Promise<ReceivedUpload> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.headers["content-type"] ?? "");
  const hash = createHash("sha256");
  let head: Buffer = Buffer.alloc(0);
  let bytes = 0;
  const take = (chunk: Buffer) => {
    if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
    hash.update(chunk);
    bytes += chunk.length;
  };
  const source = req as AsyncIterable<Buffer>;
  if (boundary) await multipart(source, `--${boundary[1] ?? boundary[2]}`, take);
  else for await (const chunk of source) take(chunk);
  return { bytes, sha256: hash.digest("hex"), mimeType: sniffMimeType(head, fileName) };
}

/** Stream the single file part of a multipart body into `take`, holding back a possible closing boundary. */
async function multipart(source: AsyncIterable<Buffer>, boundary: string, take: (chunk: Buffer) => void) {
  const closing = Buffer.from(`\r\n${boundary}`);
  let pending: Buffer = Buffer.alloc(0);
  let inBody = false;
  let done = false;
  for await (const chunk of source) {
    if (done) continue;
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (!inBody) {
      const end = pending.indexOf("\r\n\r\n");
      if (end < 0) {
        if (pending.length > 16 * 1024) throw new Error("multipart part headers too long");
        continue;
      }
      if (!pending.subarray(0, boundary.length).equals(Buffer.from(boundary)))
        throw new Error("multipart body does not start with its boundary");
      pending = pending.subarray(end + 4);
      inBody = true;
    }
    const at = pending.indexOf(closing);
    if (at >= 0) {
      take(pending.subarray(0, at));
      done = true;
      continue;
    }
    const safe = pending.length - closing.length;
    if (safe > 0) {
      take(pending.subarray(0, safe));
      pending = pending.subarray(safe);
    }
  }
  if (!done) throw new Error("multipart body has no closing boundary");
}
