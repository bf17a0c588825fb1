/**
 * `outbox-mcp` over Streamable HTTP: stateless (a fresh server per request), on
 * 127.0.0.1 by default, every request needing `Authorization: Bearer <token>`. Request
 * bodies are read here, up to `maxRequestBytes`: a larger one is answered with an error
 * naming the limit (a tool error for `tools/call`), not with the SDK's bare 413.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  answerOversized,
  type McpRequestLimits,
  MessageCollector,
  resolveMaxRequestBytes,
} from "./request-limit.js";

/** Shortest bearer token accepted. */
export const MIN_TOKEN_LENGTH = 16;

/** Options of {@link startMcpHttpServer}. */
export interface McpHttpOptions extends McpRequestLimits {
  /** The bearer token clients must send (at least 16 characters). */
  token: string;
  /** Interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** Port; 0 picks a free one. Default 0. */
  port?: number;
  /** A fresh MCP server for one request. */
  createServer: () => McpServer;
}

/** A running HTTP endpoint. */
export interface McpHttpServer {
  /** The endpoint URL (`http://127.0.0.1:<port>/mcp`). */
  url: string;
  /** Stop listening and drop connections. */
  close(): Promise<void>;
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

function refuse(res: ServerResponse, status: number, message: string): void {
  answer(res, status, { jsonrpc: "2.0", error: { code: -32001, message }, id: null });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    "content-type": "application/json",
    ...(status === 401 ? { "www-authenticate": 'Bearer realm="outbox-mcp"' } : {}),
  });
  res.end(JSON.stringify(body));
}

/** The bearer token of a request (the scheme is case-insensitive, RFC 7235), or "". */
function bearer(req: IncomingMessage): string {
  return /^bearer +(.*?) *$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
}

/**
 * Reads a POST body up to `limit`. Answers the request itself (and returns `undefined`)
 * when the body is over the limit or not JSON.
 */
async function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<unknown> {
  const collector = new MessageCollector(limit);
  for await (const chunk of req) collector.push(chunk as Buffer);
  const body = collector.finish();
  if (body.oversized) {
    const reply = answerOversized(body, limit);
    answer(res, "id" in reply ? 200 : 413, reply);
    return undefined;
  }
  try {
    return JSON.parse(body.text) as unknown;
  } catch {
    answer(res, 400, {
      jsonrpc: "2.0",
      error: { code: -32700, message: "Parse error: Invalid JSON" },
      id: null,
    });
    return undefined;
  }
}

/** Starts the endpoint at `/mcp`. @throws RangeError when the token is shorter than 16 characters. */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  if (options.token.length < MIN_TOKEN_LENGTH) {
    throw new RangeError(
      `The bearer token must be at least ${MIN_TOKEN_LENGTH} characters (set OUTBOX_MCP_TOKEN).`,
    );
  }
  const limit = resolveMaxRequestBytes(options);
  const expected = digest(options.token);
  const authorized = (req: IncomingMessage): boolean => timingSafeEqual(digest(bearer(req)), expected);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parsed = req.method === "POST" ? await readBody(req, res, limit) : undefined;
    if (res.writableEnded) return;
    const server = options.createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, parsed);
  }

  const http = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://localhost").pathname !== "/mcp")
      return refuse(res, 404, "Not found: use /mcp");
    if (!authorized(req)) return refuse(res, 401, "Unauthorized: send Authorization: Bearer <token>");
    serve(req, res).catch(() => {
      if (!res.headersSent) refuse(res, 500, "Internal error");
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const { address, port } = http.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
