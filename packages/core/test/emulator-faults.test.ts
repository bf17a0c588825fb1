import { once } from "node:events";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { serveFaults } from "../src/testing/index.js";

/** A server that records each request's path as processed and answers 200, with faults installed. */
async function start() {
  const processed: string[] = [];
  let faults: ReturnType<typeof serveFaults> | undefined;
  const server = createServer((req, res) => {
    const method = (req.url ?? "/").slice(1);
    const fault = faults?.next(method, req, res);
    if (fault?.kind === "server-error") {
      res.writeHead(fault.status).end();
      return;
    }
    req.resume();
    req.once("end", () => {
      processed.push(method);
      res.writeHead(200, { "content-length": 2 }).end("ok");
    });
  });
  faults = serveFaults(server, ["first", "second", "send", "other", "POST"]);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true });
  /** POST to /<method>: the status, or where the error came (before or after the socket connected). */
  const call = (method: string, timeoutMs = 2000) =>
    new Promise<{ status?: number; error?: string; connected: boolean }>((resolve) => {
      const req = request({ host: "127.0.0.1", port, path: `/${method}`, method: "POST", agent });
      let connected = false;
      req.on("socket", (socket) => {
        if (!socket.connecting) connected = true;
        socket.once("connect", () => {
          connected = true;
        });
      });
      req.setTimeout(timeoutMs, () =>
        req.destroy(Object.assign(new Error("timeout"), { code: "ETIMEDOUT" })),
      );
      req.on("response", (res) => {
        res.resume();
        res.once("end", () => resolve({ status: res.statusCode as number, connected }));
      });
      req.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code as string, connected }));
      req.end("{}");
    });
  const close = async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  closers.push(close);
  return { processed, faults: faults as ReturnType<typeof serveFaults>, call };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("serveFaults", () => {
  it("reset-after-processed: the request is processed, then the connection drops before any answer byte", async () => {
    const { processed, faults, call } = await start();
    faults.inject({ kind: "reset-after-processed", method: "send" });
    expect(await call("other")).toMatchObject({ status: 200 });
    expect(await call("send")).toMatchObject({ error: "ECONNRESET", connected: true });
    expect(processed).toEqual(["other", "send"]);
    expect(await call("send")).toMatchObject({ status: 200 });
  });

  it("timeout-after-processed: the request is processed and never answered; the client gives up", async () => {
    const { processed, faults, call } = await start();
    faults.inject({ kind: "timeout-after-processed" });
    expect(await call("send", 100)).toMatchObject({ error: "ETIMEDOUT", connected: true });
    expect(processed).toEqual(["send"]);
  });

  it("reset-before-write: the connection opened after the arming answer fails before it connected; nothing is processed", async () => {
    const { processed, faults, call } = await start();
    faults.inject({ kind: "reset-before-write", method: "first" });
    expect(await call("first")).toMatchObject({ status: 200 });
    expect(await call("second")).toMatchObject({ error: "ECONNRESET", connected: false });
    expect(faults.refusedConnections).toBe(1);
    expect(await call("second")).toMatchObject({ status: 200 });
    expect(processed).toEqual(["first", "second"]);
  });

  it("targets request faults by method and skip", async () => {
    const { faults, call } = await start();
    faults.inject({ kind: "server-error", status: 502, method: "send", skip: 1 });
    expect(await call("send")).toMatchObject({ status: 200 });
    expect(await call("other")).toMatchObject({ status: 200 });
    expect(await call("send")).toMatchObject({ status: 502 });
    expect(await call("send")).toMatchObject({ status: 200 });
  });
});
