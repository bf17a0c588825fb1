/**
 * The self-hosted media host on a port of its own, for integrators without a server to
 * mount it in (127.0.0.1 by default: put a TLS proxy in front, platforms fetch https only).
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { SelfHostedMedia } from "./self-hosted.js";

/** Options of {@link startMediaHost}. */
export interface StartMediaHostOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  hostname?: string;
}

/** A listening media host server. */
export interface MediaHostServer {
  /** Where it listens, e.g. `http://127.0.0.1:43121` (the origin; links use the host's `publicUrl`). */
  url: string;
  /** The port it listens on. */
  port: number;
  /** Stop listening, drop open connections and stop the host's sweeper. */
  close(): Promise<void>;
}

/** Serve `host` on its own port. Resolves once it listens. */
export async function startMediaHost(
  host: SelfHostedMedia,
  options: StartMediaHostOptions = {},
): Promise<MediaHostServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const server = createServer(host.listener).listen(options.port ?? 0, hostname);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`,
    port,
    close: async () => {
      host.close();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
