/**
 * Request bodies as Discord reads them: JSON, or `multipart/form-data` with `payload_json`
 * and `files[n]` parts. The body is read with a size cap (413 / 40005 above it).
 */
import type { IncomingMessage } from "node:http";
import { DiscordApiError, invalidFormBody } from "./api-error.js";

/** An uploaded file part. */
export interface UploadedFile {
  /** Form field (`files[0]`). */
  field: string;
  /** File name from the part's `filename`. */
  name: string;
  /** Part `Content-Type` (`application/octet-stream` when absent). */
  contentType: string;
  /** The bytes. */
  data: Buffer;
}

/** A parsed request. */
export interface RequestBody {
  /** The JSON payload (`payload_json` for multipart). */
  json: Record<string, unknown>;
  /** Files, by index `n` of `files[n]`. */
  files: Map<number, UploadedFile>;
  /** The request was multipart. */
  multipart: boolean;
}

const tooLarge = () => new DiscordApiError(413, 40005, "Request entity too large");

/** Read and parse a request body, refusing more than `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<RequestBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks);
  const type = req.headers["content-type"] ?? "";
  const boundary = /^multipart\/form-data;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (boundary) return parseMultipart(raw, (boundary[1] ?? boundary[2]) as string);
  if (raw.length === 0) return { json: {}, files: new Map(), multipart: false };
  if (!/^application\/json/i.test(type))
    throw new DiscordApiError(400, 50109, "The request body contains invalid JSON.");
  return { json: parseJson(raw.toString("utf8")), files: new Map(), multipart: false };
}

function parseJson(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new DiscordApiError(400, 50109, "The request body contains invalid JSON.");
}

function parseMultipart(raw: Buffer, boundary: string): RequestBody {
  const delimiter = Buffer.from(`--${boundary}`);
  const files = new Map<number, UploadedFile>();
  let json: Record<string, unknown> = {};
  let position = raw.indexOf(delimiter);
  if (position < 0) throw invalidFormBody("files", "MULTIPART_MALFORMED", "Malformed multipart body.");
  for (;;) {
    const start = position + delimiter.length;
    if (raw.subarray(start, start + 2).toString() === "--") break;
    const next = raw.indexOf(delimiter, start);
    if (next < 0) throw invalidFormBody("files", "MULTIPART_MALFORMED", "Unterminated multipart body.");
    const part = raw.subarray(start + 2, next - 2); // after CRLF, before CRLF
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) throw invalidFormBody("files", "MULTIPART_MALFORMED", "Part without headers.");
    const headers = part.subarray(0, split).toString("utf8");
    const data = part.subarray(split + 4);
    const disposition = /content-disposition:\s*form-data;\s*name="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(
      headers,
    );
    if (!disposition) throw invalidFormBody("files", "MULTIPART_MALFORMED", "Part without a name.");
    const field = disposition[1] as string;
    const contentType =
      /content-type:\s*([^\r\n;]+)/i.exec(headers)?.[1]?.trim() ?? "application/octet-stream";
    if (field === "payload_json") json = parseJson(data.toString("utf8"));
    else {
      const index = /^files\[(\d+)\]$/.exec(field)?.[1];
      if (index === undefined || disposition[2] === undefined)
        throw invalidFormBody(field, "UNKNOWN_FIELD", `Unexpected form field ${field}.`);
      files.set(Number(index), { field, name: disposition[2], contentType, data: Buffer.from(data) });
    }
    position = next;
  }
  return { json, files, multipart: true };
}
