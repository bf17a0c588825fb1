/**
 * What the MCP channel carries: Markdown text, every media kind as base64 content blocks
 * (20 MB an item), captions as a text block beside the media; no replies, threads, voice
 * notes or albums, and no rate limits (a tool result is not a chat platform).
 */
import { type Capabilities, validateCapabilities } from "@outbox/core";
import { MCP_MAX_ITEM_BYTES } from "../content/payload-to-mcp.js";

/** Longest text block: 16 000 UTF-16 units, a readable message for an agent or a person. */
export const MCP_TEXT_MAX_LENGTH = 16_000;

/** The capabilities of {@link createMcpAdapter}'s channel. */
export const mcpCapabilities: Capabilities = validateCapabilities({
  text: { maxLength: MCP_TEXT_MAX_LENGTH, format: "markdown" },
  caption: { maxLength: MCP_TEXT_MAX_LENGTH },
  media: {
    kinds: ["image", "animation", "video", "audio", "document"],
    maxBytes: { default: MCP_MAX_ITEM_BYTES },
  },
  album: null,
  voice: { mode: "as-audio", formats: [] },
  replies: false,
  threads: false,
  markdownImages: false,
  rateLimits: [],
});
