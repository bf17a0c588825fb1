/**
 * A misbehaving proxy for tests of secret handling: every request is answered with a
 * non-JSON error page that echoes the request's own credential (the `Authorization` value
 * without its scheme) at a chosen offset, as a misconfigured reverse proxy or a platform's
 * debug page can. An adapter that quotes the start of such a page must not quote the token.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A running echo server. */
export interface CredentialEcho {
  /** `http://127.0.0.1:<port>`: point an adapter's API root at it. */
  readonly url: string;
  /** Stop the server. */
  close(): Promise<void>;
}

/** Options of {@link startCredentialEcho}. */
export interface CredentialEchoOptions {
  /** HTTP status of every answer. Default 502. */
  status?: number;
  /** Characters of page before the credential. Default 188, so a 200-character quote cuts it. */
  offset?: number;
}

/** Start an echo server on 127.0.0.1. */
export async function startCredentialEcho(options: CredentialEchoOptions = {}): Promise<CredentialEcho> {
  const opening = "<html><body>";
  const padding = "x".repeat(Math.max(0, (options.offset ?? 188) - opening.length - 1));
  const server = createServer((req, res) => {
    const credential = (req.headers.authorization ?? "").replace(/^\S+\s+/, "");
    res.writeHead(options.status ?? 502, { "content-type": "text/html" });
    res.end(`${opening}${padding} ${credential}</body></html>`);
  }).listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
