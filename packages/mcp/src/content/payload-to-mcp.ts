/**
 * `payloadToMcpContent`: a reply payload as MCP content blocks, base64 only (URLs are
 * never handed to the client). Media goes through core's `loadMedia` under the caller's
 * policy, one item at a time, each read under the per-item and remaining response limits.
 */
import type { TextContent } from "@modelcontextprotocol/sdk/types.js";
import {
  loadMedia,
  type MediaAttachment,
  MediaError,
  type MediaPolicy,
  normalizePayload,
  type ReplyPayload,
  type ReplyPayloadInput,
} from "@outbox/core";
import { type MediaBlock, mediaBlock } from "./blocks.js";
import { readCapped } from "./read-capped.js";

/** Largest media item put into a response by default: 20 MB. */
export const MCP_MAX_ITEM_BYTES = 20 * 1024 * 1024;
/** Largest sum of media bytes in one response by default: 50 MB. */
export const MCP_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

/** Limits of {@link payloadToMcpContent}. */
export interface McpContentLimits {
  /** Largest item in bytes; a larger one is omitted with a warning. Default {@link MCP_MAX_ITEM_BYTES}. */
  maxItemBytes?: number;
  /** Largest media total in bytes; once reached, that item and every later one are omitted. Default {@link MCP_MAX_RESPONSE_BYTES}. */
  maxResponseBytes?: number;
}

/** What {@link payloadToMcpContent} produced. */
export interface McpContent {
  /** The text first, then one block per media item that fit, then one text block per warning. */
  content: Array<TextContent | MediaBlock>;
  /** What was left out and why, one line each (also appended to `content` as text). */
  warnings: string[];
}

function omitted(count: number, why: string): string {
  return `${count} media item(s) omitted: ${why}`;
}

/**
 * Converts a payload to MCP content: text → `TextContent`; jpeg/png/gif/webp images →
 * `ImageContent`; everything else → `EmbeddedResource` (`blob`, or `text` for text
 * documents) with uri `attachment://<name>`. Items over the per-item limit are omitted
 * ("N media item(s) omitted: per-item size limit"); once the response limit is reached the
 * rest are ("… response size limit"); items the policy refuses (non-https URLs, paths
 * outside the roots, private addresses) are skipped with their reason. Never reads more
 * than the limits allow.
 *
 * @throws PayloadError when the payload itself is invalid.
 */
export async function payloadToMcpContent(
  payload: ReplyPayloadInput | ReplyPayload,
  policy: MediaPolicy = {},
  limits: McpContentLimits = {},
): Promise<McpContent> {
  const maxItem = limits.maxItemBytes ?? MCP_MAX_ITEM_BYTES;
  const maxResponse = limits.maxResponseBytes ?? MCP_MAX_RESPONSE_BYTES;
  const normalized = normalizePayload(payload);
  const items: Array<string | MediaAttachment> = [...normalized.mediaUrls, ...normalized.media];
  const content: Array<TextContent | MediaBlock> = [];
  if (normalized.text.trim() !== "") content.push({ type: "text", text: normalized.text });
  const skipped = (normalized.refusedMedia ?? []).map((r) => `media ${r.reference} skipped: ${r.reason}`);
  let overItem = 0;
  let overResponse = 0;
  let used = 0;
  const itemPolicy: MediaPolicy = { ...policy, maxBytes: Math.min(policy.maxBytes ?? maxItem, maxItem) };
  for (const [index, item] of items.entries()) {
    if (used >= maxResponse) {
      overResponse = items.length - index;
      break;
    }
    let loaded: Awaited<ReturnType<typeof loadMedia>>;
    try {
      loaded = await loadMedia(item, itemPolicy);
    } catch (error) {
      if (error instanceof MediaError && error.reason === "too-large") overItem += 1;
      else if (error instanceof MediaError) skipped.push(`media item ${index + 1} skipped: ${error.message}`);
      else throw error;
      continue;
    }
    if (loaded.size > maxItem) {
      overItem += 1;
      continue;
    }
    const bytes = await readCapped(loaded, Math.min(maxItem, maxResponse - used));
    if (bytes === undefined) {
      if (loaded.size > maxResponse - used) {
        overResponse = items.length - index;
        break;
      }
      overItem += 1;
      continue;
    }
    used += bytes.byteLength;
    content.push(mediaBlock(bytes, loaded.mimeType, loaded.fileName));
  }
  const warnings = [
    ...skipped,
    ...(overItem > 0 ? [omitted(overItem, "per-item size limit")] : []),
    ...(overResponse > 0 ? [omitted(overResponse, "response size limit")] : []),
  ];
  for (const warning of warnings) content.push({ type: "text", text: warning });
  return { content, warnings };
}
