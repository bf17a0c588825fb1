/**
 * Reads a Bot API request into parameters and uploaded files: JSON, urlencoded,
 * multipart/form-data (streamed, read strictly: see the kit's `readStrictForm`) and
 * query-string parameters, as Telegram accepts them.
 */
import type { IncomingMessage } from "node:http";
import {
  multipartBoundary,
  type ReceivedFilePart,
  readStrictForm,
  StrictMultipartError,
} from "@outbox/core/testing";
import { badRequest } from "./api-error.js";

/** An uploaded file part, read by the kit's strict multipart reader. */
export type UploadedFile = ReceivedFilePart;

/** One decoded request. */
export interface ApiRequest {
  /** Parameters; values from multipart and urlencoded bodies are strings. */
  params: Record<string, unknown>;
  /** Uploaded file parts by part name. */
  files: Map<string, UploadedFile>;
}

const MAX_SMALL_BODY = 10 * 1024 * 1024;

/** Read and decode the whole request. */
export async function readRequest(req: IncomingMessage, url: URL): Promise<ApiRequest> {
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  if (type.startsWith("multipart/form-data")) {
    const boundary = multipartBoundary(req.headers["content-type"]);
    if (!boundary) throw badRequest("multipart body without a boundary");
    try {
      const body = await readStrictForm(req, boundary);
      for (const [name, field] of body.fields) params[name] = field;
      return { params, files: new Map(body.files.map((file) => [file.name, file])) };
    } catch (error) {
      if (error instanceof StrictMultipartError) throw badRequest(`wrong multipart body: ${error.message}`);
      throw error;
    }
  }
  const raw = await readSmall(req);
  if (type.startsWith("application/json") && raw.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw badRequest("can't parse JSON object");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw badRequest("request body must be a JSON object");
    }
    Object.assign(params, parsed);
  } else if (type.startsWith("application/x-www-form-urlencoded")) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(raw)));
  }
  return { params, files: new Map() };
}

async function readSmall(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_SMALL_BODY) throw badRequest("request body is too big");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A parameter that is an object in JSON bodies and a JSON string in form bodies. */
export function objectParam(params: Record<string, unknown>, name: string): unknown {
  const value = params[name];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}

/** A parameter as an integer, or undefined when absent. */
export function intParam(params: Record<string, unknown>, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  const number = typeof value === "number" ? value : Number(value);
  if (!Number.isInteger(number)) throw badRequest(`invalid ${name} specified`);
  return number;
}
