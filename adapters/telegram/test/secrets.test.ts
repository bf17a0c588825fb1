/**
 * No secret leaves through a failure: the bot token (grammY puts it in every request URL)
 * and credentials or query strings of media references never appear in anything a receipt
 * or an error exposes: messages, the cause chain, `JSON.stringify`, `util.inspect`.
 */
import { createServer, type Server, type Socket } from "node:net";
import { inspect } from "node:util";
import type { DeliveryReceipt } from "@outbox/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTelegramAdapter } from "../src/index.js";
import { startTelegramEmulator, type TelegramEmulator } from "../src/testing/index.js";

const TOKEN = "987654321:SeCrEtToKeN_for-outbox-leak-tests_XYZ";
const LEAKS = [TOKEN, "SeCrEtToKeN", "S3CR3T-QUERY", "hunter2-password"];

/** Everything a caller can read from a value: its JSON, its inspection, error messages, stacks and causes. */
function exposed(value: unknown): string {
  const seen = new Set<unknown>();
  const parts: string[] = [
    JSON.stringify(value) ?? "",
    inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ];
  const walk = (item: unknown, depth: number): void => {
    if (item === null || typeof item !== "object" || seen.has(item) || depth > 12) return;
    seen.add(item);
    if (item instanceof Error) parts.push(String(item), item.message, item.stack ?? "", JSON.stringify(item));
    for (const key of Reflect.ownKeys(item)) {
      const child = (item as Record<PropertyKey, unknown>)[key];
      if (typeof child === "string") parts.push(child);
      else walk(child, depth + 1);
    }
  };
  walk(value, 0);
  return parts.join("\n");
}

function expectNoLeak(value: unknown): void {
  const text = exposed(value);
  for (const secret of LEAKS) expect(text).not.toContain(secret);
}

let emulator: TelegramEmulator;
let silent: Server;
let silentSockets: Socket[] = [];
let silentPort = 0;

beforeAll(async () => {
  silent = createServer((socket) => silentSockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as { port: number }).port;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      for (const socket of silentSockets) socket.destroy();
      silentSockets = [];
      silent.close(() => resolve());
    }),
);
afterEach(() => emulator?.close());

async function failingSend(options: { apiRoot?: string; timeoutSeconds?: number; token?: string } = {}) {
  const adapter = createTelegramAdapter({
    token: options.token ?? TOKEN,
    apiRoot: options.apiRoot ?? emulator.apiRoot,
    retry: { maxRetries: 0 },
    ...(options.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds }),
  });
  const receipt: DeliveryReceipt = await adapter.send({ text: "hello" }, { to: "42" });
  expect(receipt.ok).toBe(false);
  expect(receipt.failures).toHaveLength(1);
  expectNoLeak(receipt);
  return receipt;
}

describe("the bot token never leaks through a failure", () => {
  beforeAll(() => undefined);

  it.each([
    ["a 5xx", { kind: "server-error", status: 502 } as const],
    ["a connection reset", { kind: "reset" } as const],
    [
      "a rejection",
      { kind: "reject", description: `Bad Request: echo of /bot${TOKEN}/sendMessage` } as const,
    ],
  ])("%s", async (_name, fault) => {
    emulator = await startTelegramEmulator({ token: TOKEN, rateLimits: false });
    emulator.inject(fault);
    await failingSend();
  });

  it("a 401 (wrong token)", async () => {
    emulator = await startTelegramEmulator({ rateLimits: false });
    const receipt = await failingSend();
    expect(receipt.failures[0]?.error.code).toBe("auth_failed");
  });

  it("a connection refused", async () => {
    emulator = await startTelegramEmulator({ token: TOKEN, rateLimits: false });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const receipt = await failingSend({ apiRoot: `http://127.0.0.1:${port}` });
    expect(receipt.failures[0]?.error.code).toBe("transport_error");
  });

  it("a timeout (the server never answers)", async () => {
    emulator = await startTelegramEmulator({ token: TOKEN, rateLimits: false });
    const receipt = await failingSend({ apiRoot: `http://127.0.0.1:${silentPort}`, timeoutSeconds: 0.3 });
    expect(receipt.failures[0]?.error.code).toBe("transport_error");
  });
});

describe("media references never show credentials or query strings", () => {
  it("in refusals of the loader and of the parser", async () => {
    emulator = await startTelegramEmulator({ token: TOKEN, rateLimits: false });
    const adapter = createTelegramAdapter({ token: TOKEN, apiRoot: emulator.apiRoot });
    const receipt = await adapter.send(
      {
        text: "see\nMEDIA: http://example.com/a.png?token=S3CR3T-QUERY",
        mediaUrls: [
          "ftp://user:hunter2-password@files.example.com/a.png",
          "http://example.com/b.png?token=S3CR3T-QUERY",
          "https://user:hunter2-password@example.com/c.png",
          "https://127.0.0.1/d.png?sig=S3CR3T-QUERY",
        ],
      },
      { to: "42" },
    );
    expect(receipt.failures.length).toBeGreaterThanOrEqual(4);
    for (const failure of receipt.failures) expect(failure.error.code).toMatch(/^media_/);
    expectNoLeak(receipt);
  });
});
