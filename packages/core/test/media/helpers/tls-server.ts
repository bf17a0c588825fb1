/**
 * A local https server for media tests: self-signed certificate, routes by path, and a
 * request log per host and path so tests can assert that a refused target was never asked.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { checkServerIdentity, connect } from "node:tls";
import { Agent } from "undici";

const fixtures = new URL("../../fixtures/", import.meta.url);

/** The test certificate (CN media.outbox.test, SAN *.outbox.test, *.example.com, 93.184.216.34, 127.0.0.1). */
export const TEST_CERT = readFileSync(new URL("media-tls.crt", fixtures));
const TEST_KEY = readFileSync(new URL("media-tls.key", fixtures));

/** A route handler. */
export type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A running test server. */
export interface MediaServer {
  /** Port on 127.0.0.1. */
  port: number;
  /** Requests seen, as `host path` → count. */
  requests: Map<string, number>;
  /** How many requests `host` + `path` received. */
  count(host: string, path: string): number;
  /** Total requests received. */
  total(): number;
  /** Routes by path (without query); settable per test. */
  routes: Map<string, Route>;
  /** Stops the server and drops connections. */
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 with a random port. */
export async function startMediaServer(): Promise<MediaServer> {
  const requests = new Map<string, number>();
  const routes = new Map<string, Route>();
  const server: Server = createServer({ cert: TEST_CERT, key: TEST_KEY }, (request, response) => {
    const host = (request.headers.host ?? "").replace(/:\d+$/, "");
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    const key = `${host} ${path}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
    const route = routes.get(path);
    if (route === undefined) {
      response.writeHead(404).end("not found");
      return;
    }
    route(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    routes,
    count: (host, path) => requests.get(`${host} ${path}`) ?? 0,
    total: () => [...requests.values()].reduce((sum, value) => sum + value, 0),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Connections the routing agent opened: the pinned address undici asked for, and the TLS name. */
export interface ConnectRecord {
  /** The address (or name) undici connected to. */
  hostname: string;
  /** The TLS server name (SNI). */
  servername: string | null;
}

/**
 * An undici Agent that trusts the test certificate and routes every connection, whatever
 * its address, to the test server, recording the address it was asked for. A check that
 * failed open would therefore reach the server and show up in its request log.
 */
export function routingAgent(port: number, log: ConnectRecord[]): Agent {
  return new Agent({
    connect: (options, callback) => {
      const servername = options.servername ?? null;
      log.push({ hostname: options.hostname, servername });
      const socket = connect({
        host: "127.0.0.1",
        port,
        ca: TEST_CERT,
        ...(servername ? { servername } : {}),
        checkServerIdentity: (_host, cert) => checkServerIdentity(servername || options.hostname, cert),
      });
      socket.once("secureConnect", () => callback(null, socket));
      socket.once("error", (error) => callback(error, null));
    },
  });
}
