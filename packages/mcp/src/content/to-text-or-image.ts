/**
 * `toTextOrImageContent`: a tool result's content made safe for consumers (LLM providers)
 * that accept only text and images. The input is untrusted: any JSON value is accepted and
 * the output holds only well-formed text blocks and image blocks with valid base64.
 */
import type { ImageContent, TextContent } from "@modelcontextprotocol/sdk/types.js";
import { isStrictBase64 } from "./base64.js";

/** Options of {@link toTextOrImageContent}. */
export interface TextOrImageOptions {
  /** The result's `structuredContent`; when present it comes first, as pretty JSON text. */
  structuredContent?: unknown;
  /** Longest text made from one unusable block's JSON, in UTF-16 units; longer is cut with a note. Default 8 192. */
  maxJsonLength?: number;
}

/** `image/<subtype>` with a token subtype (`image/png`, `image/svg+xml`). */
const IMAGE_MIME = /^image\/[a-z0-9][a-z0-9.+-]*$/i;

const DEFAULT_MAX_JSON = 8192;

type Block = Record<string, unknown>;

function isObject(value: unknown): value is Block {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: string): TextContent {
  return { type: "text", text: value };
}

/** JSON of an unusable block, never throwing, cut to `max` characters. */
function jsonText(value: unknown, max: number): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) {
    try {
      json = String(value);
    } catch {
      json = "[unprintable content block]";
    }
  }
  return json.length > max ? `${json.slice(0, max)}… (${json.length - max} more characters omitted)` : json;
}

function coerce(block: unknown, max: number): TextContent | ImageContent {
  if (!isObject(block)) return text(jsonText(block, max));
  switch (block.type) {
    case "text":
      if (typeof block.text === "string") return text(block.text);
      break;
    case "image": {
      const { data, mimeType } = block;
      if (typeof data === "string" && typeof mimeType === "string" && IMAGE_MIME.test(mimeType)) {
        if (isStrictBase64(data)) return { type: "image", data, mimeType };
      }
      break;
    }
    case "audio":
      if (typeof block.mimeType === "string") return text(`[audio ${block.mimeType}]`);
      break;
    case "resource_link":
      if (typeof block.uri === "string") {
        const label =
          typeof block.title === "string" ? block.title : typeof block.name === "string" ? block.name : "";
        return text(label === "" ? block.uri : `[${label}] ${block.uri}`);
      }
      break;
    case "resource": {
      const resource = block.resource;
      if (isObject(resource)) {
        if (typeof resource.text === "string") return text(resource.text);
        if (typeof resource.uri === "string") return text(resource.uri);
      }
      break;
    }
  }
  return text(jsonText(block, max));
}

/**
 * Normalizes a `CallToolResult.content` array for consumers that accept only text and
 * images: valid images pass through; `resource_link` becomes `[title] uri` (else
 * `[name] uri`, else `uri`); `resource` its text, else its uri; `audio` `[audio <mimeType>]`;
 * a malformed image or any other block the text of its JSON. Never throws: a value that is
 * not an array is treated as one block.
 */
export function toTextOrImageContent(
  blocks: unknown[],
  options: TextOrImageOptions = {},
): Array<TextContent | ImageContent> {
  const max = options.maxJsonLength ?? DEFAULT_MAX_JSON;
  const out: Array<TextContent | ImageContent> = [];
  if (options.structuredContent !== undefined) {
    let json: string | undefined;
    try {
      json = JSON.stringify(options.structuredContent, null, 2);
    } catch {
      json = undefined;
    }
    out.push(text(json ?? jsonText(options.structuredContent, max)));
  }
  const list: unknown[] = Array.isArray(blocks) ? blocks : [blocks];
  for (const block of list) out.push(coerce(block, max));
  return out;
}
