/**
 * The attack battery: every reference here must be refused with a MediaError of the
 * stated reason, and the test server (reachable for every address, see `routingAgent`)
 * must not have been asked for the refused target.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMedia, MediaError, type MediaErrorReason, type MediaPolicy } from "../../src/index.js";
import { drain, type Harness, redirect, serve, startHarness } from "./helpers/harness.js";

/** Special-use addresses a public-looking name may resolve to. */
const PRIVATE_ADDRESSES = [
  "0.0.0.0",
  "0.1.2.3",
  "10.0.0.1",
  "10.255.255.255",
  "100.64.0.1",
  "100.127.255.254",
  "127.0.0.1",
  "127.255.255.254",
  "169.254.169.254",
  "169.254.0.1",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.8",
  "192.0.2.1",
  "192.88.99.1",
  "192.168.0.1",
  "192.168.255.255",
  "198.18.0.1",
  "198.19.255.255",
  "198.51.100.7",
  "203.0.113.9",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  "::",
  "::1",
  "fe80::1",
  "fc00::1",
  "fd12:3456::1",
  "fec0::1",
  "ff02::1",
  "::ffff:127.0.0.1",
  "::ffff:10.0.0.1",
  "::ffff:169.254.169.254",
  "64:ff9b::7f00:1",
  "64:ff9b::a9fe:a9fe",
  "2002:7f00:1::1",
  "2002:c0a8:101::1",
  "100::1",
  "2001:db8::1",
  "2001:2::1",
];

/** URLs refused by the string check alone (no lookup, no connection). */
const BLOCKED_URLS: Array<[string, string]> = [
  ["IPv4 loopback literal", "https://127.0.0.1/secret"],
  ["IPv4 private literal", "https://10.0.0.1/secret"],
  ["cloud metadata literal", "https://169.254.169.254/latest/meta-data/"],
  ["unspecified literal", "https://0.0.0.0/secret"],
  ["IPv6 loopback literal", "https://[::1]/secret"],
  ["IPv6 link-local literal", "https://[fe80::1]/secret"],
  ["IPv4-mapped IPv6 literal", "https://[::ffff:127.0.0.1]/secret"],
  ["NAT64 literal", "https://[64:ff9b::7f00:1]/secret"],
  ["6to4 literal", "https://[2002:7f00:1::1]/secret"],
  ["legacy short form 127.1", "https://127.1/secret"],
  ["legacy octal 0177.0.0.1", "https://0177.0.0.1/secret"],
  ["legacy hex 0x7f.0.0.1", "https://0x7f.0.0.1/secret"],
  ["legacy integer 2130706433", "https://2130706433/secret"],
  ["legacy hex integer", "https://0x7f000001/secret"],
  ["legacy octal integer", "https://017700000001/secret"],
  ["legacy three-part 127.0.1", "https://127.0.1/secret"],
  ["localhost", "https://localhost/secret"],
  ["LOCALHOST. with trailing dot", "https://LOCALHOST./secret"],
  ["*.localhost", "https://media.localhost/secret"],
  ["*.local", "https://printer.local/secret"],
  ["*.internal", "https://svc.internal/secret"],
  ["metadata.google.internal", "https://metadata.google.internal/computeMetadata/v1/"],
  ["dotless intranet name", "https://intranet/secret"],
  ["http: scheme", "http://public.example.com/secret"],
  ["http: scheme of an allowed host", "http://media.outbox.test/secret"],
  ["userinfo", "https://user:pass@public.example.com/secret"],
  ["userinfo on an allowed host", "https://user@media.outbox.test/secret"],
  ["ftp: scheme", "ftp://public.example.com/secret"],
  ["gopher: scheme", "gopher://public.example.com/secret"],
  ["javascript: scheme", "javascript:alert(1)"],
  ["file: URL naming a remote host", "file://attacker.example.com/share/secret"],
];

let harness: Harness;
const hosts: Record<string, string[]> = {
  "multi.example.com": ["93.184.216.34", "10.0.0.5"],
  "rebind-private-first.example.com": ["127.0.0.1", "93.184.216.34"],
  "evil.outbox.test": ["127.0.0.1"],
  "media2.outbox.test": ["localhost"],
};
PRIVATE_ADDRESSES.forEach((address, index) => {
  hosts[`private${index}.example.com`] = [address];
});

beforeAll(async () => {
  harness = await startHarness(
    Object.fromEntries(
      Object.entries(hosts).map(([name, answers]) => [name, answers.length > 1 ? [answers] : answers]),
    ),
  );
});
afterAll(() => harness.close());

/** Loads, expects a MediaError with `reason`, and returns it. */
async function refused(ref: string, reason: MediaErrorReason, policy?: MediaPolicy): Promise<MediaError> {
  const error = await loadMedia(ref, policy ?? harness.policy()).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MediaError);
  expect((error as MediaError).reason).toBe(reason);
  expect((error as MediaError).message.length).toBeGreaterThan(20);
  return error as MediaError;
}

describe("attack battery: resolved addresses", () => {
  it.each(PRIVATE_ADDRESSES.map((address, index) => [address, index] as const))(
    "refuses a public-looking name resolving to %s",
    async (address, index) => {
      const host = `private${index}.example.com`;
      const error = await refused(`https://${host}/secret`, "blocked");
      expect(error.message).toContain(address);
      expect(harness.server.count(host, "/secret")).toBe(0);
      expect(harness.connections.some((record) => record.servername === host)).toBe(false);
    },
  );

  it("refuses a name when any one of its addresses is private", async () => {
    await refused("https://multi.example.com/secret", "blocked");
    expect(harness.server.count("multi.example.com", "/secret")).toBe(0);
  });

  it("refuses rebinding whose first answer is private", async () => {
    await refused("https://rebind-private-first.example.com/secret", "blocked");
    expect(harness.server.count("rebind-private-first.example.com", "/secret")).toBe(0);
  });

  it("refuses a host outside allowHosts even when it resolves to the server", async () => {
    await refused("https://evil.outbox.test/secret", "blocked");
    expect(harness.server.count("evil.outbox.test", "/secret")).toBe(0);
  });
});

describe("attack battery: resolver answers", () => {
  it("refuses a resolver answer that is a name, not an IP (it would be resolved again), even for an allowed host", async () => {
    await refused(
      "https://media2.outbox.test/secret",
      "blocked",
      harness.policy({ allowHosts: ["media2.outbox.test"] }),
    );
    expect(harness.server.count("media2.outbox.test", "/secret")).toBe(0);
  });
});

describe("attack battery: URL strings", () => {
  it.each(BLOCKED_URLS)("refuses %s (%s)", async (_name, url) => {
    const before = { lookups: harness.lookups.length, requests: harness.server.total() };
    await refused(url, "blocked");
    expect(harness.lookups.length).toBe(before.lookups);
    expect(harness.server.total()).toBe(before.requests);
  });
});

describe("attack battery: redirects", () => {
  const targets: Array<[string, string, string]> = [
    ["a name outside allowHosts", "https://evil.outbox.test/secret", "evil.outbox.test"],
    ["a private literal", "https://127.0.0.1/secret", "127.0.0.1"],
    ["an IPv6 loopback literal", "https://[::1]/secret", "[::1]"],
    ["the metadata service", "https://169.254.169.254/latest/meta-data/", "169.254.169.254"],
    ["http:", "http://media.outbox.test/secret", "media.outbox.test"],
    ["userinfo", "https://user:pw@media.outbox.test/secret", "media.outbox.test"],
    ["localhost", "https://localhost/secret", "localhost"],
    ["a name resolving to 10.0.0.1", "https://private2.example.com/secret", "private2.example.com"],
  ];

  it.each(targets)("refuses a redirect to %s", async (_name, location, host) => {
    const path = `/to-${encodeURIComponent(location)}`;
    harness.route(path, redirect(location));
    const before = harness.server.count(host, "/secret");
    await refused(`https://media.outbox.test${path}`, "blocked");
    expect(harness.server.count(host, "/secret")).toBe(before);
    expect(harness.server.count("media.outbox.test", path)).toBe(1);
  });

  it("stops a redirect loop before asking again", async () => {
    harness.route("/loop-a", redirect("/loop-b"));
    harness.route("/loop-b", redirect("/loop-a"));
    const error = await refused("https://media.outbox.test/loop-a", "fetch-failed");
    expect(error.message).toMatch(/loop/);
    expect(harness.server.count("media.outbox.test", "/loop-a")).toBe(1);
    expect(harness.server.count("media.outbox.test", "/loop-b")).toBe(1);
  });

  it("stops a self-redirect", async () => {
    harness.route("/self", redirect("https://media.outbox.test/self"));
    await refused("https://media.outbox.test/self", "fetch-failed");
    expect(harness.server.count("media.outbox.test", "/self")).toBe(1);
  });

  it("stops after maxRedirects (default 3)", async () => {
    for (let hop = 1; hop <= 4; hop += 1) harness.route(`/chain${hop}`, redirect(`/chain${hop + 1}`));
    const error = await refused("https://media.outbox.test/chain1", "fetch-failed");
    expect(error.message).toMatch(/more than 3/);
    expect(harness.server.count("media.outbox.test", "/chain4")).toBe(1);
    expect(harness.server.count("media.outbox.test", "/chain5")).toBe(0);
  });

  it("follows no redirect with maxRedirects 0", async () => {
    harness.route("/once", redirect("/image.png"));
    const before = harness.server.count("media.outbox.test", "/image.png");
    await refused("https://media.outbox.test/once", "fetch-failed", harness.policy({ maxRedirects: 0 }));
    expect(harness.server.count("media.outbox.test", "/image.png")).toBe(before);
  });
});

describe("attack battery: bodies", () => {
  it("refuses a content-length above maxBytes before reading the body", async () => {
    harness.route("/huge", serve(Buffer.alloc(50_000), "application/octet-stream"));
    await refused("https://media.outbox.test/huge", "too-large", harness.policy({ maxBytes: 10_000 }));
  });

  it("aborts an endless body the moment it passes maxBytes", async () => {
    let sent = 0;
    harness.route("/endless", (_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(16_384, 0x41);
      const pump = () => {
        while (!response.destroyed && response.write(chunk)) sent += chunk.length;
      };
      response.on("drain", pump);
      pump();
    });
    await refused("https://media.outbox.test/endless", "too-large", harness.policy({ maxBytes: 100_000 }));
    expect(sent).toBeLessThan(10_000_000);
  });

  it("refuses a content-length lying low (smuggled chunked body longer than announced)", async () => {
    harness.route("/lying", (request) => {
      const chunk = "A".repeat(1000);
      request.socket.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n");
      for (let index = 0; index < 5; index += 1) request.socket.write(`3e8\r\n${chunk}\r\n`);
      request.socket.end("0\r\n\r\n");
    });
    await refused("https://media.outbox.test/lying", "fetch-failed", harness.policy({ maxBytes: 1000 }));
  });

  it("never yields more than the announced content-length (extra bytes on the wire are dropped)", async () => {
    harness.route("/overlong", (request) => {
      request.socket.write("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nConnection: close\r\n\r\n");
      request.socket.end("B".repeat(5000));
    });
    const media = await loadMedia("https://media.outbox.test/overlong", harness.policy({ maxBytes: 1000 }));
    expect(media.size).toBe(10);
  });

  it("refuses on open() a body that grew past the cap since loading", async () => {
    let size = 500;
    harness.route("/grows", (_request, response) => {
      response.writeHead(200);
      response.end(Buffer.alloc(size));
    });
    const media = await loadMedia("https://media.outbox.test/grows", harness.policy({ maxBytes: 1000 }));
    size = 5000;
    await expect(drain(media.open())).rejects.toMatchObject({ reason: "too-large" });
  });

  it("times out a body that stalls (short timeoutMs)", async () => {
    harness.route("/stall", (_request, response) => {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.write(Buffer.alloc(100));
    });
    const error = await refused(
      "https://media.outbox.test/stall",
      "fetch-failed",
      harness.policy({ timeoutMs: 150 }),
    );
    expect(error.message).toMatch(/timed out after 150 ms/);
  });

  it("times out a server that never answers", async () => {
    harness.route("/silent", () => {});
    await refused("https://media.outbox.test/silent", "fetch-failed", harness.policy({ timeoutMs: 150 }));
  });
});
