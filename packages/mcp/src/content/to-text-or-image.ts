/**
 * `toTextOrImageContent`: a tool result's content made safe for consumers (LLM providers)
 * that accept only text and images. The input is untrusted: any value is accepted (a
 * throwing getter, a Proxy) and the output holds only well-formed text blocks and image
 * blocks a model provider takes: jpeg, png, gif or webp whose bytes start as that format,
 * within a size limit. A session must never be poisoned by a block.
 */
import type { ImageContent, TextContent } from "@modelcontextprotocol/sdk/types.js";
import { decodedLength, isStrictBase64 } from "./base64.js";

/** Options of {@link toTextOrImageContent}. */
export interface TextOrImageOptions {
  /** The result's `structuredContent`; when present it comes first, as pretty JSON text. */
  structuredContent?: unknown;
  /** Longest text made from one unusable block's JSON, in UTF-16 units; longer is cut with a note. Default 8 192. */
  maxJsonLength?: number;
  /** Largest image passed through, in decoded bytes; a larger one becomes text. Default 5 MiB (what model providers accept). */
  maxImageBytes?: number;
}

/** Default {@link TextOrImageOptions.maxImageBytes}: 5 MiB. */
export const MCP_MAX_PROVIDER_IMAGE_BYTES = 5 * 1024 * 1024;

/** The image types model providers accept, with the first bytes each must start with. */
const PROVIDER_IMAGES: Readonly<Record<string, (head: Buffer) => boolean>> = {
  "image/png": (head) =>
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (head) => head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff,
  "image/gif": (head) => /^GIF8[79]a/.test(head.toString("latin1", 0, 6)),
  "image/webp": (head) =>
    head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP",
};

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

/** Why a well-formed image block is not passed to a provider, or `undefined` when it may be. */
function unsafeImage(data: string, mimeType: string, maxBytes: number): string | undefined {
  const accepts = PROVIDER_IMAGES[mimeType.toLowerCase()];
  if (accepts === undefined) return "not an image type model providers accept (jpeg, png, gif, webp)";
  const size = decodedLength(data);
  if (size > maxBytes) return `${size} bytes, over the ${maxBytes}-byte limit`;
  if (!accepts(Buffer.from(data.slice(0, 16), "base64"))) return `its bytes are not ${mimeType}`;
  return undefined;
}

function coerce(block: unknown, max: number, maxImageBytes: number): TextContent | ImageContent {
  if (!isObject(block)) return text(jsonText(block, max));
  switch (block.type) {
    case "text":
      if (typeof block.text === "string") return text(block.text);
      break;
    case "image": {
      const { data, mimeType } = block;
      if (typeof data === "string" && typeof mimeType === "string" && IMAGE_MIME.test(mimeType)) {
        if (isStrictBase64(data)) {
          const reason = unsafeImage(data, mimeType, maxImageBytes);
          if (reason === undefined) return { type: "image", data, mimeType };
          return text(`[image ${mimeType} not shown: ${reason}]`);
        }
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
 * images: images a provider takes pass through (jpeg, png, gif or webp whose bytes match,
 * up to `maxImageBytes`); any other image (SVG, bytes that are not what they say, too
 * large) becomes `[image <type> not shown: <reason>]`; `resource_link` becomes `[title] uri`
 * (else `[name] uri`, else `uri`); `resource` its text, else its uri; `audio`
 * `[audio <mimeType>]`; a malformed image or any other block the text of its JSON. Never
 * throws: a value that is not an array is treated as one block, and a block that throws
 * when read (a getter, a Proxy) becomes `[unreadable content block]`.
 */
export function toTextOrImageContent(
  blocks: unknown[],
  options: TextOrImageOptions = {},
): Array<TextContent | ImageContent> {
  const max = readOr(() => options.maxJsonLength, undefined) ?? DEFAULT_MAX_JSON;
  const maxImageBytes = readOr(() => options.maxImageBytes, undefined) ?? MCP_MAX_PROVIDER_IMAGE_BYTES;
  const out: Array<TextContent | ImageContent> = [];
  const structured = readOr<unknown>(() => options.structuredContent, UNREADABLE);
  if (structured === UNREADABLE) out.push(text(UNREADABLE_TEXT));
  else if (structured !== undefined) {
    let json: string | undefined;
    try {
      json = JSON.stringify(structured, null, 2);
    } catch {
      json = undefined;
    }
    out.push(text(json ?? jsonText(structured, max)));
  }
  const list = readOr<unknown[]>(() => (Array.isArray(blocks) ? [...blocks] : [blocks]), [UNREADABLE]);
  for (const block of list) {
    const unreadable = text(UNREADABLE_TEXT);
    out.push(block === UNREADABLE ? unreadable : readOr(() => coerce(block, max, maxImageBytes), unreadable));
  }
  return out;
}

const UNREADABLE_TEXT = "[unreadable content block]";
/** Stands for a value that threw when read. */
const UNREADABLE: unique symbol = Symbol("unreadable");

/** `read()`, or `fallback` when reading throws. */
function readOr<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
