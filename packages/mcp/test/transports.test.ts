import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it, onTestFinished } from "vitest";
import { openOutboxMcp, startMcpHttpServer } from "../src/index.js";

const TOKEN = "test-token-0123456789abcdef";

async function sendHello(client: Client): Promise<Record<string, unknown>> {
  const result = CallToolResultSchema.parse(
    await client.callTool({
      name: "send_message",
      arguments: { platform: "telegram", to: "4242", message: "hello from a real client" },
    }),
  );
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent ?? {};
}

describe("outbox-mcp transports", () => {
  it("Streamable HTTP on 127.0.0.1 delivers with the bearer token and refuses a missing or wrong one", async () => {
    const outbox = await openOutboxMcp({ emulator: true });
    const http = await startMcpHttpServer({ token: TOKEN, createServer: outbox.createServer });
    onTestFinished(async () => {
      await http.close();
      await outbox.close();
    });
    expect(http.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const connect = async (headers: Record<string, string>): Promise<Client> => {
      const client = new Client({ name: "test", version: "0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers } }),
      );
      return client;
    };
    const client = await connect({ authorization: `Bearer ${TOKEN}` });
    expect(await sendHello(client)).toMatchObject({ ok: true });
    expect(outbox.pool.emulated.get("telegram")?.observe().at(-1)?.text).toBe("hello from a real client");
    await client.close();
    await expect(connect({})).rejects.toThrow();
    await expect(connect({ authorization: `Bearer ${TOKEN}x` })).rejects.toThrow();
    const raw = await fetch(http.url, {
      method: "POST",
      headers: { authorization: "Bearer nope" },
      body: "{}",
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("the Bearer scheme is case-insensitive", async () => {
    const outbox = await openOutboxMcp({ emulator: true });
    const http = await startMcpHttpServer({ token: TOKEN, createServer: outbox.createServer });
    onTestFinished(async () => {
      await http.close();
      await outbox.close();
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    };
    const post = (authorization: string) =>
      fetch(http.url, {
        method: "POST",
        headers: {
          authorization,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(initialize),
      });
    for (const scheme of ["Bearer", "bearer", "BEARER"])
      expect((await post(`${scheme} ${TOKEN}`)).status).toBe(200);
    expect((await post(`Basic ${TOKEN}`)).status).toBe(401);
    expect((await post(TOKEN)).status).toBe(401);
  });

  it("refuses to serve HTTP with a short token", async () => {
    await expect(startMcpHttpServer({ token: "short", createServer: () => never() })).rejects.toThrow(
      /at least 16/,
    );
  });

  it("a spawned stdio server process delivers to the emulator", { timeout: 60_000 }, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [tsx, "--conditions=source", bin, "--emulator"],
      stderr: "pipe",
    });
    const client = new Client({ name: "test", version: "0" });
    await client.connect(transport);
    onTestFinished(() => client.close());
    expect(client.getInstructions()).toContain('to="4242"');
    const receipt = await sendHello(client);
    expect(receipt).toMatchObject({ ok: true, platform: "telegram", messages: [{ kind: "text", part: 0 }] });
  });

  it("the stdio server exits and removes its media directory when its stdin ends", {
    timeout: 60_000,
  }, async () => {
    const tmp = mkdtempSync(join(tmpdir(), "outbox-mcp-exit-"));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    const child = spawn(process.execPath, [tsx, "--conditions=source", bin, "--emulator"], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "0" } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n`);
    await new Promise((resolve) => child.stdout.once("data", resolve));
    const mediaDirs = () => readdirSync(tmp).filter((name) => name.startsWith("outbox-mcp-"));
    expect(mediaDirs()).toHaveLength(1);
    child.stdin.end();
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(0);
    expect(mediaDirs()).toEqual([]);
  });
});

describe("outbox-mcp refused starts", () => {
  async function start(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: unknown; left: string[] }> {
    const tmp = mkdtempSync(join(tmpdir(), "outbox-mcp-refused-"));
    onTestFinished(() => rmSync(tmp, { recursive: true, force: true }));
    const child = spawn(process.execPath, [tsx, "--conditions=source", bin, "--emulator", ...args], {
      env: { ...process.env, ...env, TMPDIR: tmp },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    return { code, left: readdirSync(tmp).filter((name) => name.startsWith("outbox-mcp-")) };
  }

  it("a missing or short token leaves no media directory behind", { timeout: 60_000 }, async () => {
    expect(await start(["--http", "--port", "0"], { OUTBOX_MCP_TOKEN: "short" })).toEqual({
      code: 1,
      left: [],
    });
    expect(await start(["--http", "--port", "0"], { OUTBOX_MCP_TOKEN: "" })).toEqual({ code: 1, left: [] });
  });

  it("a port in use leaves no media directory behind", { timeout: 60_000 }, async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => busy.close(() => resolve())));
    const port = String((busy.address() as AddressInfo).port);
    expect(await start(["--http", "--port", port], { OUTBOX_MCP_TOKEN: TOKEN })).toEqual({
      code: 1,
      left: [],
    });
  });
});

const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const bin = fileURLToPath(new URL("../src/bin/outbox-mcp.ts", import.meta.url));

function never(): never {
  throw new Error("not reached");
}
