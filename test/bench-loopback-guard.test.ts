import { createServer, get, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect, type LookupFunction } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { guardLoopback, LeftLoopbackError, type LoopbackGuard } from "../bench/support/loopback-guard.js";

let guard: LoopbackGuard;
let server: Server;
let origin: string;

beforeEach(async () => {
  server = createServer((req, res) => res.end(`local ${req.url}`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  guard = guardLoopback({ "https://discord.com/api/v10": `${origin}/api/v10` });
});
afterEach(async () => {
  guard.uninstall();
  await new Promise((resolve) => server.close(resolve));
});

/** A resolver answering `address` for every name, in both of Node's call shapes. */
const resolvesTo =
  (address: string): LookupFunction =>
  (_host, options, callback) =>
    options.all ? callback(null, [{ address, family: 4 }] as never, 4) : callback(null, address, 4);

const failure = (socket: ReturnType<typeof connect>) =>
  new Promise<Error>((resolve) =>
    socket.on("error", resolve).on("connect", () => resolve(new Error("connected"))),
  );

describe("bench loopback guard (the peer process)", () => {
  it("refuses a connection to a non-loopback IP before any packet, for raw sockets and http.request", () => {
    expect(() => connect({ host: "10.255.255.1", port: 9 })).toThrow(LeftLoopbackError);
    expect(() => get("http://192.0.2.1/")).toThrow(LeftLoopbackError);
    expect(guard.refused).toEqual(["10.255.255.1", "192.0.2.1"]);
  });

  it("refuses a host name that resolves outside 127.0.0.1, and lets one resolving to it through", async () => {
    const outside = await failure(
      connect({ host: "api.example", port: 9, lookup: resolvesTo("93.184.216.34") }),
    );
    expect(outside).toBeInstanceOf(LeftLoopbackError);
    expect(outside.message).toContain("api.example → 93.184.216.34");
    const port = Number(new URL(origin).port);
    const local = connect({ host: "media.outbox.test", port, lookup: resolvesTo("127.0.0.1") });
    expect((await failure(local)).message).toBe("connected");
    local.destroy();
  });

  it("refuses fetch to any other host, and rewrites a hard-coded origin to the local one", async () => {
    await expect(fetch("https://api.telegram.org/bot1:x/getMe")).rejects.toThrow(LeftLoopbackError);
    expect(await (await fetch("https://discord.com/api/v10/channels/1/messages")).text()).toBe(
      "local /api/v10/channels/1/messages",
    );
    expect(guard.rewritten).toEqual({ "https://discord.com/api/v10": 1 });
    expect(await (await fetch(`${origin}/x`)).text()).toBe("local /x");
  });
});
