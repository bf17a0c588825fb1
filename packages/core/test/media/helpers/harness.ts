/**
 * The remote-media test harness: a TLS server on 127.0.0.1, a routing agent that sends
 * every connection there (recording the pinned address), and a scripted resolver.
 */
import type { MediaPolicy } from "../../../src/index.js";
import { fakeLookup } from "./lookup.js";
import { png } from "./samples.js";
import {
  type ConnectRecord,
  type MediaServer,
  type Route,
  routingAgent,
  startMediaServer,
} from "./tls-server.js";

/** A running harness. */
export interface Harness {
  /** The server, its routes and request log. */
  server: MediaServer;
  /** Connections opened, with the address undici was pinned to. */
  connections: ConnectRecord[];
  /** Names looked up, in order. */
  lookups: string[];
  /** A policy using the harness (the allowed host is `media.outbox.test`), with overrides. */
  policy(overrides?: MediaPolicy): MediaPolicy;
  /** Adds or replaces a route. */
  route(path: string, handler: Route): void;
  /** Stops everything. */
  close(): Promise<void>;
}

/** Sends `body` with a content type and (unless `chunked`) a content length. */
export function serve(body: Uint8Array, type = "application/octet-stream", chunked = false): Route {
  return (_request, response) => {
    response.writeHead(200, { "content-type": type, ...(chunked ? {} : { "content-length": body.length }) });
    if (chunked) response.write(body.subarray(0, 1));
    response.end(chunked ? body.subarray(1) : body);
  };
}

/** Answers with a redirect to `location`. */
export function redirect(location: string, status = 302): Route {
  return (_request, response) => {
    response.writeHead(status, { location }).end();
  };
}

/**
 * Starts a harness. `hosts` maps names to scripted answers (see `fakeLookup`);
 * `media.outbox.test` → 127.0.0.1 and `public.example.com` → 93.184.216.34 are always there.
 */
export async function startHarness(hosts: Record<string, Array<string | string[]>> = {}): Promise<Harness> {
  const server = await startMediaServer();
  const connections: ConnectRecord[] = [];
  const dispatcher = routingAgent(server.port, connections);
  const resolver = fakeLookup({
    "media.outbox.test": ["127.0.0.1"],
    "public.example.com": ["93.184.216.34"],
    ...hosts,
  });
  server.routes.set("/image.png", serve(png(), "image/png"));
  server.routes.set("/secret", serve(Buffer.from("secret"), "text/plain"));
  return {
    server,
    connections,
    lookups: resolver.calls,
    policy: (overrides = {}) => ({
      lookup: resolver.lookup,
      dispatcher,
      allowHosts: ["media.outbox.test"],
      timeoutMs: 5_000,
      ...overrides,
    }),
    route: (path, handler) => server.routes.set(path, handler),
    close: async () => {
      await server.close();
      await dispatcher.close();
    },
  };
}

/** Reads every chunk of an `open()` stream and returns the bytes. */
export async function drain(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
