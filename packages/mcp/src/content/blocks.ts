/**
 * One media item as an MCP content block: images the MCP image type accepts as
 * `ImageContent`, text documents as an `EmbeddedResource` with `text`, anything else
 * (audio, video, documents, archives) as an `EmbeddedResource` with a base64 `blob`.
 */
import type { EmbeddedResource, ImageContent } from "@modelcontextprotocol/sdk/types.js";

/** Image types sent as `ImageContent` (what MCP clients and LLM providers display). */
export const MCP_IMAGE_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/** A content block carrying media. */
export type MediaBlock = ImageContent | EmbeddedResource;

/** True for MIME types whose bytes go as resource `text` (UTF-8). */
function isTextDocument(mimeType: string): boolean {
  return mimeType.startsWith("text/") || mimeType === "application/json";
}

/** The `attachment://` URI of an item, its name percent-encoded. */
export function attachmentUri(fileName: string): string {
  return `attachment://${encodeURIComponent(fileName)}`;
}

/** The block for one item's bytes. */
export function mediaBlock(bytes: Buffer, mimeType: string, fileName: string): MediaBlock {
  if (MCP_IMAGE_TYPES.includes(mimeType)) {
    return { type: "image", data: bytes.toString("base64"), mimeType };
  }
  const uri = attachmentUri(fileName);
  if (isTextDocument(mimeType)) {
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      return { type: "resource", resource: { uri, mimeType, text } };
    } catch {
      // Not valid UTF-8: carried as bytes instead.
    }
  }
  return { type: "resource", resource: { uri, mimeType, blob: bytes.toString("base64") } };
}
