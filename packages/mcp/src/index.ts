/**
 * @outbox/mcp: MCP content blocks to and from the payload model, MCP as a channel, and
 * the `outbox-mcp` server that delivers to every channel.
 *
 * @packageDocumentation
 */

export { MCP_TEXT_MAX_LENGTH, mcpCapabilities } from "./channel/capabilities.js";
export { createMcpAdapter } from "./channel/create-mcp-adapter.js";
export { markdownRenderer, renderMarkdown } from "./channel/markdown-renderer.js";
export type * from "./channel/types.js";
export { attachmentUri, MCP_IMAGE_TYPES, type MediaBlock } from "./content/blocks.js";
export {
  MCP_MAX_ITEM_BYTES,
  MCP_MAX_RESPONSE_BYTES,
  type McpContent,
  type McpContentLimits,
  payloadToMcpContent,
} from "./content/payload-to-mcp.js";
export {
  MCP_MAX_PROVIDER_IMAGE_BYTES,
  type TextOrImageOptions,
  toTextOrImageContent,
} from "./content/to-text-or-image.js";
export { MCP_FILE_MIME_TYPES, MCP_IMAGE_MIME_TYPES } from "./inbound/allowlist.js";
export { mediaFromMcpArguments } from "./inbound/media-from-arguments.js";
export type * from "./inbound/types.js";
export { MCP_MAX_FILES, MCP_MAX_IMAGES, MCP_MAX_INPUT_BYTES } from "./inbound/validate-arguments.js";
export { type ReceiptJson, receiptToJson, summarizeReceipt } from "./receipt-json.js";
export { type ChannelPool, type ChannelPoolOptions, createChannelPool } from "./server/channel-pool.js";
export { createOutboxMcpServer, type OutboxMcpServerOptions } from "./server/create-server.js";
export { type FindMcpAdaptersOptions, findMcpAdapters } from "./server/find-adapters.js";
export {
  type McpHttpOptions,
  type McpHttpServer,
  MIN_TOKEN_LENGTH,
  startMcpHttpServer,
} from "./server/http.js";
export { type OpenOutboxMcpOptions, type OutboxMcp, openOutboxMcp } from "./server/open.js";
export {
  MCP_DEFAULT_MAX_REQUEST_BYTES,
  type McpRequestLimits,
} from "./server/request-limit.js";
export type { SendMessageArguments } from "./server/send-message.js";
export { type McpStdioOptions, McpStdioServerTransport } from "./server/stdio.js";
