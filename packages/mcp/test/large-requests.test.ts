import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { fixtureBytes } from "@outbox/conformance";
import { describe, expect, it, onTestFinished } from "vitest";
import { openOutboxMcp, startMcpHttpServer } from "../src/index.js";

const TOKEN = "test-token-0123456789abcdef";
const MB = 1024 * 1024;

/** A PNG of `size` bytes: the fixture, padded after its end. */
function pngOf(size: number): string {
  const png = fixtureBytes("png");
  const bytes = Buffer.alloc(size);
  bytes.set(png);
  return bytes.toString("base64");
}

async function send(client: Client, images: Array<{ data: string; mimeType: string }>) {
  return CallToolResultSchema.parse(
    await client.callTool(
      { name: "send_message", arguments: { platform: "telegram", to: "4242", message: "big", images } },
      undefined,
      { timeout: 120_000 },
    ),
  );
}

async function hello(client: Client) {
  const result = CallToolResultSchema.parse(
    await client.callTool({
      name: "send_message",
      arguments: { platform: "telegram", to: "4242", message: "still here" },
    }),
  );
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
}

function stdioClient(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [tsx, "--conditions=source", bin, "--emulator", ...args],
    stderr: "pipe",
  });
  const client = new Client({ name: "test", version: "0" });
  onTestFinished(() => client.close());
  return client.connect(transport).then(() => client);
}

async function httpClient(maxRequestBytes?: number) {
  const outbox = await openOutboxMcp({ emulator: true });
  const http = await startMcpHttpServer({
    token: TOKEN,
    createServer: outbox.createServer,
    ...(maxRequestBytes === undefined ? {} : { maxRequestBytes }),
  });
  onTestFinished(async () => {
    await http.close();
    await outbox.close();
  });
  const client = new Client({ name: "test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    }),
  );
  onTestFinished(() => client.close());
  return { client, outbox, url: http.url };
}

describe("outbox-mcp large requests", () => {
  it("stdio: a 14 MB image is delivered to the emulator", { timeout: 120_000 }, async () => {
    const client = await stdioClient([]);
    const result = await send(client, [{ data: pngOf(14 * MB), mimeType: "image/png" }]);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ ok: true });
    await hello(client);
  });

  it("Streamable HTTP: a 14 MB image is delivered to the emulator", { timeout: 120_000 }, async () => {
    const { client, outbox } = await httpClient();
    const result = await send(client, [{ data: pngOf(14 * MB), mimeType: "image/png" }]);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const observed = outbox.pool.emulated.get("telegram")?.observe().at(-1);
    expect(JSON.stringify(observed)).toMatch(/photo|document/);
  });

  it("stdio: a request over the limit is a tool error naming the limit; the server keeps serving", {
    timeout: 60_000,
  }, async () => {
    const client = await stdioClient(["--max-request-mb", "1"]);
    const result = await send(client, [{ data: pngOf(2 * MB), mimeType: "image/png" }]);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/at most 1048576 bytes in one request.*maxRequestBytes/);
    expect(result.structuredContent).toMatchObject({ ok: false, error: { code: "request_too_large" } });
    await hello(client);
  });

  it("Streamable HTTP: a request over the limit is a tool error naming the limit; the server keeps serving", {
    timeout: 60_000,
  }, async () => {
    const { client } = await httpClient(MB);
    const result = await send(client, [{ data: pngOf(2 * MB), mimeType: "image/png" }]);
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/at most 1048576 bytes in one request.*maxRequestBytes/);
    await hello(client);
  });

  it("both transports: an unknown argument and an empty message are tool errors; the server keeps serving", {
    timeout: 60_000,
  }, async () => {
    const clients = [await stdioClient([]), (await httpClient()).client];
    for (const client of clients) {
      for (const [args, reason] of [
        [
          { message: "hi", image: [{ data: pngOf(1024), mimeType: "image/png" }] },
          /Unrecognized key: "image"/,
        ],
        [{ message: "" }, /Nothing to send/],
      ] as const) {
        const result = CallToolResultSchema.parse(
          await client.callTool({
            name: "send_message",
            arguments: { platform: "telegram", to: "4242", ...args },
          }),
        );
        expect(result.isError).toBe(true);
        expect(result.content.map((block) => (block.type === "text" ? block.text : "")).join("")).toMatch(
          reason,
        );
      }
      await hello(client);
    }
  });

  it("stdio: a line that is not JSON-RPC gets a parse error and the server keeps serving", {
    timeout: 60_000,
  }, async () => {
    const client = await stdioClient([]);
    const transport = (client as unknown as { _transport: StdioClientTransport })._transport;
    const stdin = (transport as unknown as { _process: { stdin: NodeJS.WritableStream } })._process.stdin;
    stdin.write("this is not json\n{}\n");
    await hello(client);
  });
});

const tsx = createRequire(import.meta.url).resolve("tsx/cli");
const bin = fileURLToPath(new URL("../src/bin/outbox-mcp.ts", import.meta.url));
