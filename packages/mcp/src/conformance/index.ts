/** The MCP channel's conformance harness and the client-side decoding it observes with. */
export { type DecodedMarkdown, decodeMarkdown } from "@outbox/core/testing";
export { decodeChannelResult } from "./decode-result.js";
export { createMcpHarness, MCP_HARNESS_TARGET, type McpHarnessOptions } from "./harness.js";
