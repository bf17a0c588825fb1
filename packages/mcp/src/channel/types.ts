/**
 * Types of the MCP channel: `createMcpAdapter`'s config, the messages it holds, and the
 * adapter it returns.
 */
import type { CallToolResult, TextContent } from "@modelcontextprotocol/sdk/types.js";
import type {
  ChannelAdapter,
  Clock,
  DeliveryStore,
  MediaPolicy,
  MessageKind,
  ReplyPayload,
  ReplyPayloadInput,
  RetryPolicy,
  SendOptions,
} from "@outbox/core";
import type { MediaBlock } from "../content/blocks.js";

/** One message of the MCP channel: the content blocks of one delivered part. */
export interface McpMessage {
  /** Message id (`<to>/<n>`), unique in the adapter. */
  id: string;
  /** The conversation it was sent to (`Target.to`). */
  to: string;
  /** What it carries. */
  kind: MessageKind;
  /** Its blocks: a text block, or a media block followed by its caption's text block. */
  content: Array<TextContent | MediaBlock>;
}

/** Configuration of {@link createMcpAdapter}. */
export interface McpAdapterConfig {
  /** Policy every media reference is loaded under (roots, SSRF rules). Default: core's defaults. */
  media?: MediaPolicy;
  /** Largest sum of media bytes held for one conversation; a part over it fails with `MediaError("too-large")`. Default 50 MB. */
  maxResponseBytes?: number;
  /**
   * Called with each message before it is held; rejecting (with one of core's error
   * classes) fails that part, as a platform refusal would. Use it to forward or to test.
   */
  deliver?: (message: McpMessage) => Promise<void> | void;
  /** Retry bounds, for a `deliver` that can fail. */
  retry?: RetryPolicy;
  /** Clock for retry waits. Default: the real clock. */
  clock?: Clock;
  /** Journal for once-only delivery. Default: in memory. */
  store?: DeliveryStore;
}

/** The MCP channel: an adapter whose messages become the content of a tool result. */
export interface McpAdapter extends ChannelAdapter {
  /**
   * Removes and returns the messages held for a conversation, as a tool result: every
   * block in order, and `structuredContent.messages` giving each message's id, kind and
   * number of blocks (so a client can tell messages apart).
   */
  take(to: string): CallToolResult;
  /**
   * Delivers a payload into a fresh conversation and returns it as a tool result, with the
   * receipt in `structuredContent.receipt`; `isError` when nothing could be delivered.
   */
  reply(payload: ReplyPayloadInput | ReplyPayload, options?: SendOptions): Promise<CallToolResult>;
}
