/**
 * Request bodies as Discord reads them: JSON, or `multipart/form-data` with `payload_json`
 * and `files[n]` parts, read strictly by the kit's `readStrictForm`. The body is read with a
 * size cap (413 / 40005 above it).
 */
import type { IncomingMessage } from "node:http";
import { multipartBoundary, readStrictForm, StrictMultipartError } from "@outbox/core/testing";
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
  const boundary = multipartBoundary(type);
  if (boundary !== undefined) return parseMultipart(raw, boundary);
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

async function parseMultipart(raw: Buffer, boundary: string): Promise<RequestBody> {
  let form: Awaited<ReturnType<typeof readStrictForm>>;
  try {
    form = await readStrictForm([raw], boundary, { keepFileBytes: true, headBytes: 0 });
  } catch (error) {
    if (error instanceof StrictMultipartError)
      throw invalidFormBody("files", "MULTIPART_MALFORMED", `Malformed multipart body: ${error.message}.`);
    throw error;
  }
  const payload = form.fields.get("payload_json");
  const json = payload === undefined ? {} : parseJson(payload);
  for (const field of form.fields.keys())
    if (field !== "payload_json")
      throw invalidFormBody(field, "UNKNOWN_FIELD", `Unexpected form field ${field}.`);
  const files = new Map<number, UploadedFile>();
  for (const file of form.files) {
    const index = /^files\[(\d+)\]$/.exec(file.name)?.[1];
    if (index === undefined)
      throw invalidFormBody(file.name, "UNKNOWN_FIELD", `Unexpected form field ${file.name}.`);
    files.set(Number(index), {
      field: file.name,
      name: file.fileName,
      contentType: file.contentType?.split(";")[0]?.trim() || "application/octet-stream",
      data: file.data ?? Buffer.alloc(0),
    });
  }
  return { json, files, multipart: true };
}
