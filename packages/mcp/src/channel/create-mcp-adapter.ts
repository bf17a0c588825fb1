/**
 * `createMcpAdapter`: MCP as a channel. A tool that answers with a reply delivers it
 * through this adapter (planned, split, media loaded under the policy, receipt) and returns
 * what the adapter holds as its `CallToolResult`.
 */
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createAdapter } from "@outbox/core";
import { receiptToJson } from "../receipt-json.js";
import { mcpCapabilities } from "./capabilities.js";
import { markdownRenderer } from "./markdown-renderer.js";
import { createMcpTransport, type McpMailbox } from "./transport.js";
import type { McpAdapter, McpAdapterConfig } from "./types.js";

/**
 * Builds the MCP channel adapter (name `mcp`): Markdown text, media as base64 blocks,
 * no replies, threads or voice notes (declared in {@link mcpCapabilities}).
 */
export function createMcpAdapter(config: McpAdapterConfig = {}): McpAdapter {
  const mailbox: McpMailbox = { messages: new Map(), bytes: new Map() };
  const adapter = createAdapter({
    name: "mcp",
    capabilities: mcpCapabilities,
    renderer: markdownRenderer,
    transport: createMcpTransport(config, mailbox),
    ...(config.media === undefined ? {} : { media: config.media }),
    ...(config.retry === undefined ? {} : { retry: config.retry }),
    ...(config.clock === undefined ? {} : { clock: config.clock }),
    ...(config.store === undefined ? {} : { store: config.store }),
  });

  function take(to: string): CallToolResult {
    const messages = mailbox.messages.get(to) ?? [];
    mailbox.messages.delete(to);
    mailbox.bytes.delete(to);
    return {
      content: messages.flatMap((m) => m.content),
      structuredContent: {
        messages: messages.map((m) => ({ id: m.id, kind: m.kind, blocks: m.content.length })),
      },
    };
  }

  return {
    name: adapter.name,
    capabilities: adapter.capabilities,
    send: (payload, target, options) => adapter.send(payload, target, options),
    close: async () => {
      mailbox.messages.clear();
      mailbox.bytes.clear();
      await adapter.close?.();
    },
    take,
    async reply(payload, options) {
      const to = `reply-${randomUUID()}`;
      const receipt = await adapter.send(payload, { to }, options);
      const result = take(to);
      const notes = receipt.failures.map((f) => ({
        type: "text" as const,
        text: `Part ${f.part} not delivered: ${f.error.message}`,
      }));
      return {
        content: [...result.content, ...notes],
        structuredContent: { ...result.structuredContent, receipt: receiptToJson(receipt) },
        ...(receipt.messages.length === 0 && !receipt.ok ? { isError: true } : {}),
      };
    },
  };
}
