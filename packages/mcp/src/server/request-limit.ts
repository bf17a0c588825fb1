/**
 * The size limit of one JSON-RPC request, shared by both transports: a request is read
 * into memory up to the limit; past it only a bounded head and tail are kept (memory
 * stays bounded by the limit, whatever the client sends) and the request is answered
 * with an error naming the limit (a tool error for `tools/call`) instead of ending the
 * server or the connection.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Default {@link McpRequestLimits.maxRequestBytes}: 64 MiB (about 47 MB of base64 media). */
export const MCP_DEFAULT_MAX_REQUEST_BYTES = 64 * 1024 * 1024;

/** Limits on what a client may send in one request. */
export interface McpRequestLimits {
  /**
   * Largest JSON-RPC message, in bytes, as sent (base64 media is 4/3 of its size).
   * Larger requests are refused with an error naming this limit; the server keeps running.
   * Default {@link MCP_DEFAULT_MAX_REQUEST_BYTES}.
   */
  maxRequestBytes?: number;
}

/** The limit to apply. @throws RangeError for a value that is not a positive integer. */
export function resolveMaxRequestBytes(limits: McpRequestLimits = {}): number {
  const value = limits.maxRequestBytes ?? MCP_DEFAULT_MAX_REQUEST_BYTES;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(`maxRequestBytes must be a positive whole number of bytes, got ${String(value)}.`);
  }
  return value;
}

/** Bytes kept from the start and from the end of an oversized message (to answer it). */
const HEAD_BYTES = 64 * 1024;
const TAIL_BYTES = 4 * 1024;

/** One message read to its end. */
export type CollectedMessage =
  | { oversized: false; text: string }
  | { oversized: true; size: number; head: string; tail: string };

/** Collects one message's bytes, keeping at most the limit in memory. */
export class MessageCollector {
  private chunks: Buffer[] = [];
  private size = 0;
  private head: Buffer | undefined;
  private tail = Buffer.alloc(0);

  /** @param limit largest message kept whole, in bytes. */
  constructor(private readonly limit: number) {}

  /** Bytes received so far. */
  get received(): number {
    return this.size;
  }

  /** Adds the next bytes of the message. */
  push(chunk: Buffer): void {
    if (chunk.byteLength === 0) return;
    this.size += chunk.byteLength;
    if (this.head === undefined && this.size <= this.limit) {
      this.chunks.push(chunk);
      return;
    }
    if (this.head === undefined) {
      const all = Buffer.concat([...this.chunks, chunk]);
      this.chunks = [];
      this.head = Buffer.from(all.subarray(0, HEAD_BYTES));
      this.tail = Buffer.from(all.subarray(-TAIL_BYTES));
      return;
    }
    const joined = Buffer.concat([this.tail, chunk]);
    this.tail = Buffer.from(joined.subarray(-TAIL_BYTES));
  }

  /** The whole message, or its head and tail when it passed the limit; the collector is reset. */
  finish(): CollectedMessage {
    const out: CollectedMessage =
      this.head === undefined
        ? { oversized: false, text: Buffer.concat(this.chunks, this.size).toString("utf8") }
        : {
            oversized: true,
            size: this.size,
            head: this.head.toString("utf8"),
            tail: this.tail.toString("utf8"),
          };
    this.chunks = [];
    this.size = 0;
    this.head = undefined;
    this.tail = Buffer.alloc(0);
    return out;
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** The id as the message's first member (after an optional `jsonrpc`), as most clients write it. */
const ID_FIRST = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** The id as the message's last member, as the TypeScript SDK writes it. */
const ID_LAST = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);
const TOOLS_CALL = /"method"\s*:\s*"tools\/call"/;

/** The text naming the limit. */
export function requestTooLargeMessage(size: number, limit: number): string {
  return `The request is ${size} bytes; this server accepts at most ${limit} bytes in one request (option maxRequestBytes, outbox-mcp --max-request-mb). Send fewer or smaller items per call.`;
}

/**
 * The answer to an oversized message: a tool error for `tools/call`, a JSON-RPC error for
 * any other request, a JSON-RPC error without an id when no request id can be found.
 */
export function answerOversized(
  message: Extract<CollectedMessage, { oversized: true }>,
  limit: number,
): JSONRPCMessage {
  const raw = ID_FIRST.exec(message.head)?.[1] ?? ID_LAST.exec(message.tail)?.[1];
  const text = requestTooLargeMessage(message.size, limit);
  if (raw === undefined) return { jsonrpc: "2.0", error: { code: -32600, message: text } };
  const id = JSON.parse(raw) as string | number;
  const isToolCall = TOOLS_CALL.test(message.head) || TOOLS_CALL.test(message.tail);
  if (!isToolCall) return { jsonrpc: "2.0", id, error: { code: -32600, message: text } };
  return {
    jsonrpc: "2.0",
    id,
    result: {
      isError: true,
      content: [{ type: "text", text: `send_message failed (request_too_large): ${text}` }],
      structuredContent: {
        ok: false,
        error: { code: "request_too_large", message: text, issues: [] },
      },
    },
  };
}
