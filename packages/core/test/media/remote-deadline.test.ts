/**
 * One deadline for the whole load of a URL, connect and TLS handshake included: a server
 * that accepts TCP and never answers the handshake must not hold a load past `timeoutMs`
 * (undici's own connect timeout is 10 s), and `signal` aborts at once in that phase.
 * Bounds are generous (a busy CPU cannot make them flake) and far below 10 s.
 */
import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMedia, type MediaPolicy } from "../../src/index.js";
import { fakeLookup } from "./helpers/lookup.js";

/** Far below undici's 10 s connect timeout, far above any scheduling delay. */
const BOUND_MS = 6_000;

let server: Server;
let sockets: Socket[] = [];
let url: string;

beforeAll(async () => {
  server = createServer((socket) => sockets.push(socket));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = `https://handshake.outbox.test:${(server.address() as { port: number }).port}/a.png`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  sockets = [];
  server.close();
  await once(server, "close");
});

/** Core's own agent (no dispatcher): the real connector, with its real connect timeout. */
function policy(overrides: MediaPolicy): MediaPolicy {
  return {
    lookup: fakeLookup({ "handshake.outbox.test": ["127.0.0.1"] }).lookup,
    allowHosts: ["handshake.outbox.test"],
    ...overrides,
  };
}

describe("loadMedia: the deadline covers connect and TLS handshake", () => {
  // The deadline also covers the first remote load's synchronous start-up (undici's modules):
  // 1 s leaves a loaded machine the time to reach the connect, which the test needs to see.
  it("fails at timeoutMs when the handshake never completes", async () => {
    const started = performance.now();
    const error = await loadMedia(url, policy({ timeoutMs: 1000 })).catch((caught: unknown) => caught);
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({
      reason: "fetch-failed",
      message: expect.stringMatching(/timed out after 1000 ms/),
    });
    expect(sockets.length).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(BOUND_MS);
  });

  it("aborts at once when the signal fires during the handshake", async () => {
    const controller = new AbortController();
    const before = sockets.length;
    const loading = loadMedia(url, policy({ timeoutMs: 60_000, signal: controller.signal })).catch(
      (caught: unknown) => caught,
    );
    while (sockets.length === before) await once(server, "connection");
    const started = performance.now();
    controller.abort();
    const error = await loading;
    expect(error).toMatchObject({ reason: "fetch-failed", message: expect.stringMatching(/cancelled/) });
    expect(performance.now() - started).toBeLessThan(BOUND_MS);
  });
});
