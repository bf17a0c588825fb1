#!/usr/bin/env node
/**
 * `outbox-mcp`: an MCP server with a `send_message` tool delivering to every configured
 * platform. Over stdio by default; `--http` serves Streamable HTTP on 127.0.0.1 with the
 * bearer token from `OUTBOX_MCP_TOKEN`. `--emulator` delivers to local emulators instead.
 */
import { parseArgs } from "node:util";
import { startMcpHttpServer } from "../server/http.js";
import { openOutboxMcp } from "../server/open.js";
import { MCP_DEFAULT_MAX_REQUEST_BYTES, resolveMaxRequestBytes } from "../server/request-limit.js";
import { McpStdioServerTransport } from "../server/stdio.js";

const USAGE = `Usage: outbox-mcp [--emulator] [--adapter <package-or-path>]... [--max-request-mb 64] [--http [--host 127.0.0.1] [--port 3917]]

  Platforms: every @outbox adapter installed beside outbox-mcp or in the working directory's
  project, and each --adapter (or OUTBOX_ADAPTERS, comma-separated): a package or path exporting
  an adapter descriptor. Settings: the variables each adapter reads (OUTBOX_TELEGRAM_TOKEN, …;
  see docs/mcp.md). --http needs OUTBOX_MCP_TOKEN (16+ characters).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      emulator: { type: "boolean", default: false },
      adapter: { type: "string", multiple: true, default: [] },
      http: { type: "boolean", default: false },
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "3917" },
      "max-request-mb": { type: "string", default: String(MCP_DEFAULT_MAX_REQUEST_BYTES / 2 ** 20) },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const maxRequestBytes = resolveMaxRequestBytes({
    maxRequestBytes: Math.round(Number(values["max-request-mb"]) * 2 ** 20),
  });
  const outbox = await openOutboxMcp({ emulator: values.emulator, adapters: values.adapter });
  process.stderr.write(`${outbox.instructions}\n`);
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await outbox.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  if (values.http) {
    const http = await startMcpHttpServer({
      token: process.env.OUTBOX_MCP_TOKEN ?? "",
      host: values.host,
      port: Number(values.port),
      maxRequestBytes,
      createServer: outbox.createServer,
    }).catch(async (error: unknown) => {
      // A refused start (short token, port in use) leaves nothing behind in the temp dir.
      await outbox.close();
      throw error;
    });
    process.stderr.write(`outbox-mcp listening on ${http.url}\n`);
    return;
  }
  const server = outbox.createServer();
  server.server.onclose = () => void shutdown();
  // The client closing our stdin ends the session: close the emulators and remove the media directory.
  process.stdin.once("end", () => void shutdown());
  await server.connect(new McpStdioServerTransport({ maxRequestBytes }));
}

main().catch((error: unknown) => {
  process.stderr.write(`outbox-mcp: ${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
});
