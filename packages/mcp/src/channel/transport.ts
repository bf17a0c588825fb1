/**
 * The MCP channel's transport: each operation becomes one {@link McpMessage}, handed to
 * the optional `deliver` hook and then held per conversation until `take`.
 */
import type { TextContent } from "@modelcontextprotocol/sdk/types.js";
import { MediaError, type SentMessage, type Transport } from "@outbox/core";
import { type MediaBlock, mediaBlock } from "../content/blocks.js";
import { MCP_MAX_ITEM_BYTES, MCP_MAX_RESPONSE_BYTES } from "../content/payload-to-mcp.js";
import { readCapped } from "../content/read-capped.js";
import type { McpAdapterConfig, McpMessage } from "./types.js";

/** Messages held per conversation, with their media bytes. */
export interface McpMailbox {
  /** Held messages per `Target.to`. */
  messages: Map<string, McpMessage[]>;
  /** Media bytes held per `Target.to`. */
  bytes: Map<string, number>;
}

/** The transport writing into `mailbox`. */
export function createMcpTransport(config: McpAdapterConfig, mailbox: McpMailbox): Transport {
  const maxResponse = config.maxResponseBytes ?? MCP_MAX_RESPONSE_BYTES;
  let sequence = 0;

  async function post(
    to: string,
    kind: McpMessage["kind"],
    content: Array<TextContent | MediaBlock>,
    size: number,
  ): Promise<SentMessage> {
    sequence += 1;
    const message: McpMessage = { id: `${to}/${sequence}`, to, kind, content };
    await config.deliver?.(message);
    mailbox.messages.set(to, [...(mailbox.messages.get(to) ?? []), message]);
    mailbox.bytes.set(to, (mailbox.bytes.get(to) ?? 0) + size);
    return { id: message.id };
  }

  return {
    sendText(op) {
      return post(op.target.to, "text", [{ type: "text", text: op.text.text }], 0);
    },
    async sendMedia(op) {
      const to = op.target.to;
      const remaining = maxResponse - (mailbox.bytes.get(to) ?? 0);
      const bytes = await readCapped(op.media, Math.min(MCP_MAX_ITEM_BYTES, remaining));
      if (bytes === undefined) {
        const limit =
          op.media.size > MCP_MAX_ITEM_BYTES ? "the 20 MB per-item limit" : "the response size limit";
        throw new MediaError(
          "too-large",
          `${op.media.fileName} (${op.media.size} bytes) exceeds ${limit} of an MCP tool result.`,
        );
      }
      const content: Array<TextContent | MediaBlock> = [
        mediaBlock(bytes, op.media.mimeType, op.media.fileName),
      ];
      if (op.caption !== undefined) content.push({ type: "text", text: op.caption.text });
      return post(to, op.kind === "voice" ? "audio" : op.kind, content, bytes.byteLength);
    },
  };
}
