/**
 * The upload URL's receiving end: the body streams through a hash (never held whole), as raw
 * bytes or as a multipart body with one file part (what WebClient's `filesUploadV2` sends).
 * The byte count is checked against the length declared to `files.getUploadURLExternal`.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { multipartBoundary, readStrictMultipart, StrictMultipartError } from "@outbox/core/testing";
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

/** Read an upload body. Throws when a multipart body is malformed (read strictly, by the kit's reader). */
export async function receiveUpload(req: IncomingMessage, fileName: string): Promise<ReceivedUpload> {
  const boundary = multipartBoundary(req.headers["content-type"]);
  const hash = createHash("sha256");
  let head: Buffer = Buffer.alloc(0);
  let bytes = 0;
  const take = (chunk: Buffer) => {
    if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
    hash.update(chunk);
    bytes += chunk.length;
  };
  const source = req as AsyncIterable<Buffer>;
  if (boundary !== undefined) {
    let files = 0;
    await readStrictMultipart(source, boundary, (part) => {
      if (part.fileName === undefined || ++files > 1)
        throw new StrictMultipartError("an upload URL takes one file part and nothing else");
      return { write: take, end() {} };
    });
  } else for await (const chunk of source) take(chunk);
  return { bytes, sha256: hash.digest("hex"), mimeType: sniffMimeType(head, fileName) };
}
