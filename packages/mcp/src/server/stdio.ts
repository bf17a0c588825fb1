/**
 * `outbox-mcp` over stdio: newline-delimited JSON-RPC on stdin/stdout, like the SDK's
 * `StdioServerTransport`, except that nothing a client sends closes it. A message over
 * the request limit is answered with an error naming the limit (its bytes past the limit
 * are dropped as they arrive), a line that is not JSON-RPC gets a parse error; the SDK's
 * transport closes on both, and the server process with it.
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  answerOversized,
  type McpRequestLimits,
  MessageCollector,
  resolveMaxRequestBytes,
} from "./request-limit.js";

/** Options of {@link McpStdioServerTransport}. */
export interface McpStdioOptions extends McpRequestLimits {
  /** Where requests come from. Default `process.stdin`. */
  stdin?: Readable;
  /** Where answers go. Default `process.stdout`. */
  stdout?: Writable;
}

/** A server transport over stdin/stdout that survives any input. */
export class McpStdioServerTransport implements Transport {
  /** Called when the transport is closed. */
  onclose?: () => void;
  /** Called with errors reading or parsing input (the transport keeps running). */
  onerror?: (error: Error) => void;
  /** Called with every well-formed message. */
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly limit: number;
  private readonly collector: MessageCollector;
  private readonly onData = (chunk: Buffer | string): void => this.read(Buffer.from(chunk));
  private readonly onError = (error: Error): void => this.onerror?.(error);

  /** @throws RangeError for an invalid `maxRequestBytes`. */
  constructor(options: McpStdioOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.limit = resolveMaxRequestBytes(options);
    this.collector = new MessageCollector(this.limit);
  }

  /** Starts reading stdin. */
  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onError);
  }

  /** Writes one message, waiting for the pipe to drain when it is full. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  /** Stops reading stdin. */
  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.collector.finish();
    this.onclose?.();
  }

  private read(chunk: Buffer): void {
    let rest = chunk;
    for (let end = rest.indexOf(10); end !== -1; end = rest.indexOf(10)) {
      this.collector.push(rest.subarray(0, end));
      rest = rest.subarray(end + 1);
      this.line();
    }
    this.collector.push(rest);
  }

  private line(): void {
    const collected = this.collector.finish();
    if (collected.oversized) {
      void this.send(answerOversized(collected, this.limit));
      return;
    }
    const text = collected.text.replace(/\r$/, "");
    if (text.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.send({
        jsonrpc: "2.0",
        error: { code: -32700, message: "Parse error: not a JSON-RPC message." },
      });
      return;
    }
    this.onmessage?.(message);
  }
}
