/**
 * The conformance harness of the MCP channel. Per case: a fresh adapter inside a real
 * `McpServer` exposing a `take` tool, and a real MCP `Client` connected over the SDK's
 * in-memory transport. After every send the client calls the tool and decodes the result;
 * what it decoded is what `observe()` returns. Faults are injected at the adapter's
 * `deliver` hook, as core's errors (the MCP channel itself has no platform that refuses).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ConformanceHarness, conformanceMedia } from "@outbox/conformance";
import {
  type ChannelAdapter,
  type Fault,
  type ObservedMessage,
  PlatformError,
  RateLimitedError,
  TransportError,
} from "@outbox/core";
import { z } from "zod";
import { createMcpAdapter } from "../channel/create-mcp-adapter.js";
import type { McpAdapter, McpMessage } from "../channel/types.js";
import { decodeChannelResult } from "./decode-result.js";

/** The conversation the harness sends to. */
export const MCP_HARNESS_TARGET = "conformance";

/** Options of {@link createMcpHarness}. */
export interface McpHarnessOptions {
  /** Suite label. Default `mcp`. */
  name?: string;
}

/** Faults queued for the next deliveries, each with how many calls it still applies to. */
function faultGate(): { inject(fault: Fault): void; check(message: McpMessage): void } {
  const queue: Array<{ fault: Fault; left: number }> = [];
  return {
    inject(fault) {
      queue.push({ fault, left: fault.kind === "reject" ? 1 : (fault.times ?? 1) });
    },
    check(message) {
      const head = queue[0];
      if (head === undefined) return;
      head.left -= 1;
      if (head.left <= 0) queue.shift();
      const where = `deliver ${message.id}`;
      const { fault } = head;
      switch (fault.kind) {
        case "rate-limit":
          throw new RateLimitedError(`${where}: 429`, fault.retryAfterMs);
        case "server-error":
          throw new PlatformError(`${where}: ${fault.status}`, {
            method: "deliver",
            status: fault.status,
            description: `server error ${fault.status}`,
          });
        case "reset":
          throw new TransportError(`${where}: connection reset`, { ambiguous: true });
        case "reject":
          throw new PlatformError(`${where}: 400 ${fault.description}`, {
            method: "deliver",
            status: 400,
            description: fault.description,
          });
      }
    },
  };
}

/** A real MCP server exposing `take`, and a real client connected to it in memory. */
async function connect(adapter: McpAdapter): Promise<{ client: Client; close(): Promise<void> }> {
  const server = new McpServer({ name: "outbox-mcp-channel", version: "0.1.0" });
  server.registerTool(
    "take",
    {
      description: "Returns the messages delivered to a conversation since the last call.",
      inputSchema: { to: z.string() },
    },
    ({ to }) => adapter.take(to),
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "outbox-conformance", version: "0.1.0" });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Build the harness for `describeConformance`. */
export function createMcpHarness(options: McpHarnessOptions = {}): ConformanceHarness {
  return {
    name: options.name ?? "mcp",
    formatGaps: { spoiler: "MCP clients render CommonMark, which has no spoilers: the words are sent plain" },
    async setup() {
      const { policy } = await conformanceMedia();
      const faults = faultGate();
      const adapter = createMcpAdapter({ media: policy, deliver: (message) => faults.check(message) });
      const { client, close } = await connect(adapter);
      const observed: ObservedMessage[] = [];
      const pull = async (to: string): Promise<void> => {
        const result = await client.callTool({ name: "take", arguments: { to } }, CallToolResultSchema);
        observed.push(...decodeChannelResult(CallToolResultSchema.parse(result)));
      };
      const viaClient: ChannelAdapter = {
        name: adapter.name,
        capabilities: adapter.capabilities,
        async send(payload, target, sendOptions) {
          try {
            return await adapter.send(payload, target, sendOptions);
          } finally {
            await pull(target.to);
          }
        },
      };
      return {
        adapter: viaClient,
        target: { to: MCP_HARNESS_TARGET },
        observe: () => [...observed],
        inject: (fault) => faults.inject(fault),
        rateLimitRefusals: () => 0,
        teardown: async () => {
          await close();
          await adapter.close?.();
        },
      };
    },
  };
}
