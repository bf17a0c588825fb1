/**
 * Core must never install or initialize undici's global dispatcher: every undici copy
 * (Node's own `fetch` included) shares that one slot, and an undici 7 Agent there breaks
 * @discordjs/rest, which bundles undici 6. This file loads core first, loads media through
 * it (remote through its own agent and through a test dispatcher, and inline), then uses Node's `fetch`, a Slack WebClient and a
 * @discordjs/rest file upload in the same process; then, with every adapter loaded, a
 * streamed upload through the Discord adapter (its own undici Agent, never the global slot).
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createRequire } from "node:module";
import type { AddressInfo, LookupFunction } from "node:net";
import { fileURLToPath } from "node:url";
import type { MediaPolicy } from "@outbox/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceNames } from "./support/workspace.js";

/** undici's Agent constructor, as far as this test uses it. */
type AgentClass = new (options: { connect: { ca: Buffer } }) => NonNullable<MediaPolicy["dispatcher"]>;

const GLOBAL_SLOT = Symbol.for("undici.globalDispatcher.1");
const globalSlot = () => (globalThis as Record<symbol, unknown>)[GLOBAL_SLOT];
const fixtures = new URL("../packages/core/test/fixtures/", import.meta.url);
const cert = readFileSync(new URL("media-tls.crt", fixtures));
const key = readFileSync(new URL("media-tls.key", fixtures));
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const seen: Array<{ path: string; bytes: number; type: string }> = [];
const api = createHttpServer(async (request, response) => {
  const bytes = await bodyOf(request);
  seen.push({ path: request.url ?? "", bytes: bytes.length, type: request.headers["content-type"] ?? "" });
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify({ ok: true, id: "1", channel: "C1", ts: "1.0" }));
});
const media = createHttpsServer({ cert, key }, (_request, response) => {
  response.writeHead(200, { "content-type": "image/png", "content-length": PNG.length });
  response.end(PNG);
});
let apiPort = 0;
let mediaPort = 0;

beforeAll(async () => {
  apiPort = await listen(api);
  mediaPort = await listen(media);
});
afterAll(() => {
  api.closeAllConnections();
  media.closeAllConnections();
  api.close();
  media.close();
});

describe("undici coexistence", () => {
  it("core loads media without touching the global dispatcher; fetch, Slack and Discord then work", async () => {
    expect(globalSlot()).toBeUndefined();
    const core = await import("@outbox/core");
    const lookup = ((_host: string, _options: unknown, callback: (...args: unknown[]) => void) =>
      callback(null, [{ address: "127.0.0.1", family: 4 }])) as LookupFunction;
    const url = `https://media.outbox.test:${mediaPort}/pixel.png`;
    const policy = { lookup, allowHosts: ["media.outbox.test"] };

    // Core's own Agent: real connection and TLS handshake (the test cert is not trusted by default).
    await expect(core.loadMedia(url, policy)).rejects.toMatchObject({
      reason: "fetch-failed",
      message: expect.stringMatching(/certificate/i),
    });
    // A caller's dispatcher trusting the cert (undici's Agent, loaded without undici's global module).
    const requireFromCore = createRequire(
      fileURLToPath(new URL("../packages/core/package.json", import.meta.url)),
    );
    const Agent = requireFromCore("undici/lib/dispatcher/agent.js") as AgentClass;
    const dispatcher = new Agent({ connect: { ca: cert } });
    const remote = await core.loadMedia(url, { ...policy, dispatcher });
    expect(remote).toMatchObject({ mimeType: "image/png", width: 1, height: 1, size: PNG.length });
    const inline = await core.loadMedia(`data:image/png;base64,${PNG.toString("base64")}`);
    expect(inline.kind).toBe("image");
    await dispatcher.close();
    expect(globalSlot()).toBeUndefined();

    const fetched = await fetch(`http://127.0.0.1:${apiPort}/ping`);
    expect(((await fetched.json()) as { ok: boolean }).ok).toBe(true);

    const { WebClient } = await import("@slack/web-api");
    const slack = new WebClient("xoxb-test", {
      slackApiUrl: `http://127.0.0.1:${apiPort}/api/`,
      retryConfig: { retries: 0 },
    });
    const posted = await slack.chat.postMessage({ channel: "C1", text: "hello" });
    expect(posted.ok).toBe(true);

    const { REST } = await import("@discordjs/rest");
    const rest = new REST({ api: `http://127.0.0.1:${apiPort}/api`, retries: 0 }).setToken("discord-test");
    const message = await rest.post("/channels/1/messages", {
      body: { content: "hello" },
      files: [{ name: "pixel.png", data: PNG, contentType: "image/png" }],
    });
    expect(message).toMatchObject({ id: "1" });
    const upload = seen.find((entry) => entry.path === "/api/v10/channels/1/messages");
    expect(upload?.type).toMatch(/^multipart\/form-data/);
    expect(upload?.bytes).toBeGreaterThan(PNG.length);
  });

  it("with every adapter loaded, an upload through the Discord adapter streams through its own agent", async () => {
    const loaded = await Promise.all(
      workspaceNames("adapters").map(async (name) => [name, await import(`@outbox/${name}`)] as const),
    );
    const slotBefore = globalSlot();
    const { createDiscordAdapter } = Object.fromEntries(loaded).discord as typeof import("@outbox/discord");
    const discord = createDiscordAdapter({ token: "discord-test", api: `http://127.0.0.1:${apiPort}/api` });
    const receipt = await discord.send(
      { text: "pixel", mediaUrls: [`data:image/png;base64,${PNG.toString("base64")}`] },
      { to: "1100000000000000001" },
    );
    await discord.close?.();
    expect(receipt.failures).toEqual([]);
    const upload = seen.find((entry) => entry.path === "/api/v10/channels/1100000000000000001/messages");
    expect(upload?.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(upload?.bytes).toBeGreaterThan(PNG.length);
    expect(globalSlot(), "no adapter replaced the global dispatcher").toBe(slotBefore);
  });
});
