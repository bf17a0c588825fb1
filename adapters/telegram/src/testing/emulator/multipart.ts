/**
 * A streaming multipart/form-data parser, tolerant of the shapes grammY really sends
 * (lower-case headers without spaces, unquoted file names with spaces or `;`), checking
 * everything else (boundary, part headers, termination). File parts are never buffered:
 * they are counted and hashed as they stream, keeping only the first bytes for sniffing.
 */
import { createHash } from "node:crypto";

/** A file part as received. */
export interface UploadedFile {
  /** The `filename` of the part. */
  fileName: string;
  /** Bytes received. */
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  /** The first bytes (up to 64 KiB), for type sniffing and image dimensions. */
  head: Buffer;
}

/** Fields and files of one multipart body. */
export interface MultipartBody {
  /** Text parts by name. */
  fields: Map<string, string>;
  /** File parts by name. */
  files: Map<string, UploadedFile>;
}

/** A body that is not valid multipart/form-data. */
export class MultipartError extends Error {}

const HEAD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELD_BYTES = 1024 * 1024;
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

type State = "preamble" | "headers" | "body" | "after" | "done";

interface PartSink {
  write(chunk: Buffer): void;
  end(): void;
}

/** Parse a multipart body from a stream of chunks. */
export async function parseMultipart(body: AsyncIterable<Buffer>, boundary: string): Promise<MultipartBody> {
  const result: MultipartBody = { fields: new Map(), files: new Map() };
  const opening = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buf: Buffer = Buffer.alloc(0);
  let state: State = "preamble" as State;
  let sink: PartSink | undefined;

  const step = (): boolean => {
    if (state === "preamble") {
      if (buf.length < opening.length + 2) return false;
      if (!buf.subarray(0, opening.length).equals(opening))
        throw new MultipartError("body does not start with the boundary");
      buf = buf.subarray(opening.length);
      state = "after";
      return true;
    }
    if (state === "after") {
      if (buf.length < 2) return false;
      const tail = buf.subarray(0, 2).toString("latin1");
      buf = buf.subarray(2);
      if (tail === "--") state = "done";
      else if (tail === "\r\n") state = "headers";
      else throw new MultipartError("malformed boundary line");
      return true;
    }
    if (state === "headers") {
      const end = buf.indexOf(HEADER_END);
      if (end < 0) {
        if (buf.length > MAX_HEADER_BYTES) throw new MultipartError("part headers too long");
        return false;
      }
      sink = openPart(buf.subarray(0, end).toString("utf8"), result);
      buf = buf.subarray(end + HEADER_END.length);
      state = "body";
      return true;
    }
    if (state === "body") {
      const end = buf.indexOf(delimiter);
      if (end < 0) {
        const safe = buf.length - delimiter.length;
        if (safe > 0) {
          sink?.write(buf.subarray(0, safe));
          buf = buf.subarray(safe);
        }
        return false;
      }
      sink?.write(buf.subarray(0, end));
      sink?.end();
      buf = buf.subarray(end + delimiter.length);
      state = "after";
      return true;
    }
    return false;
  };

  for await (const chunk of body) {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    while (step()) {}
  }
  if (state !== "done") throw new MultipartError("body ended before the closing boundary");
  return result;
}

function openPart(rawHeaders: string, result: MultipartBody): PartSink {
  const headers = new Map<string, string>();
  for (const line of rawHeaders.split(CRLF.toString())) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError(`malformed part header "${line}"`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get("content-disposition") ?? "";
  if (!/^form-data\s*(;|$)/i.test(disposition))
    throw new MultipartError("part without form-data disposition");
  const name = /;\s*name=(?:"([^"]*)"|([^;\s]+))/i.exec(disposition);
  const partName = name?.[1] ?? name?.[2];
  if (!partName) throw new MultipartError("part without a name");
  const file = /;\s*filename=(?:"([^"]*)"|(.*))$/i.exec(disposition);
  if (file) return fileSink(partName, (file[1] ?? file[2] ?? "").trim(), result);
  return fieldSink(partName, result);
}

function fieldSink(name: string, result: MultipartBody): PartSink {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length;
      if (size > MAX_FIELD_BYTES) throw new MultipartError(`field "${name}" is too long`);
      chunks.push(chunk);
    },
    end() {
      result.fields.set(name, Buffer.concat(chunks).toString("utf8"));
    },
  };
}

function fileSink(name: string, fileName: string, result: MultipartBody): PartSink {
  const hash = createHash("sha256");
  const head: Buffer[] = [];
  let headSize = 0;
  let size = 0;
  return {
    write(chunk) {
      size += chunk.length;
      hash.update(chunk);
      if (headSize < HEAD_BYTES) {
        const take = chunk.subarray(0, HEAD_BYTES - headSize);
        head.push(Buffer.from(take));
        headSize += take.length;
      }
    },
    end() {
      result.files.set(name, { fileName, size, sha256: hash.digest("hex"), head: Buffer.concat(head) });
    },
  };
}
