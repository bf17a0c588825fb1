/** An `outbox-mcp` server and an MCP client joined by the SDK's in-memory transport. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type OpenOutboxMcpOptions, type OutboxMcp, openOutboxMcp } from "../../src/index.js";

/** The server, its client, and `send_message` called through it. */
export interface ConnectedMcp {
  /** The server's adapters, media directory and instructions. */
  outbox: OutboxMcp;
  /** The client connected to it. */
  client: Client;
  /** Call `send_message` with these arguments. */
  send(args: Record<string, unknown>): Promise<CallToolResult>;
  /** Close the client and the server. */
  close(): Promise<void>;
}

/** Open a server with `options` and connect a client to it. */
export async function connectMcp(options: OpenOutboxMcpOptions): Promise<ConnectedMcp> {
  const outbox = await openOutboxMcp(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "test", version: "0" });
  await Promise.all([outbox.createServer().connect(serverSide), client.connect(clientSide)]);
  return {
    outbox,
    client,
    send: async (args) =>
      CallToolResultSchema.parse(await client.callTool({ name: "send_message", arguments: args })),
    async close() {
      await client.close();
      await outbox.close();
    },
  };
}
