/**
 * Web API request bodies as Slack reads them: `application/x-www-form-urlencoded` (what
 * WebClient sends) or `application/json` (Slack accepts it for write methods), with the
 * token from the `Authorization: Bearer` header or a `token` field.
 */
import type { IncomingMessage } from "node:http";
import { SlackApiError } from "./errors.js";

/** A decoded Web API call. */
export interface ApiCall {
  /** Arguments; JSON-encoded form fields (`files`, `blocks`) stay strings. */
  args: Record<string, unknown>;
  /** Token presented, if any. */
  token?: string;
}

const MAX_BODY = 1024 * 1024;

/** Read and decode a Web API body. */
export async function readApiCall(req: IncomingMessage): Promise<ApiCall> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new SlackApiError("invalid_form_data");
    chunks.push(chunk);
  }
  const raw = Buffer.concat(chunks).toString("utf8");
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  let args: Record<string, unknown> = {};
  if (type === "application/json") {
    try {
      const parsed: unknown = raw === "" ? {} : JSON.parse(raw);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
        throw new Error("not an object");
      args = parsed as Record<string, unknown>;
    } catch {
      throw new SlackApiError("invalid_json");
    }
  } else if (type === "application/x-www-form-urlencoded" || raw === "") {
    args = Object.fromEntries(new URLSearchParams(raw));
  } else throw new SlackApiError("invalid_form_data");
  const header = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
  const token = header ?? (typeof args.token === "string" ? args.token : undefined);
  return { args, ...(token === undefined ? {} : { token }) };
}

/** A string argument, or `undefined`. */
export function str(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

/** A JSON argument: form fields hold JSON strings, JSON bodies hold the value itself. */
export function json(args: Record<string, unknown>, name: string): unknown {
  const value = args[name];
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new SlackApiError("invalid_arguments", [`[ERROR] ${name} must be JSON`]);
  }
}
