/**
 * A controllable front for an emulator: an HTTP proxy on 127.0.0.1 that records every request
 * body it forwards (so a test knows which parts' requests reached the platform, for
 * `checkHistory`'s `reached`), can hold requests whose body holds a marker until released
 * (a named fault point instead of timing luck), and can drop the connection after the
 * emulator processed a request.
 */
import { once } from "node:events";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** A running proxy. */
export interface RecordingProxy {
  /** The proxy's origin plus the upstream's path (use it where the emulator's base URL goes). */
  readonly url: string;
  /** Whether a request whose body holds `marker` reached the proxy. */
  reached(marker: string): boolean;
  /** How many requests whose body holds `marker` reached the proxy (a resend counts again). */
  requests(marker: string): number;
  /** Hold the next request holding `marker` (one) until {@link release}. */
  hold(marker: string): void;
  /** Let the request held for `marker` go on to the emulator (and hold none any more). */
  release(marker: string): void;
  close(): Promise<void>;
}

/** Options of {@link startRecordingProxy}. */
export interface ProxyOptions {
  /**
   * The fault "reset after processed": when it returns true for a request body, the request
   * goes to the emulator, which processes it, and the client's connection is dropped instead
   * of the answer.
   */
  resetAfterProcessed?: (body: string) => boolean;
}

/** Start a proxy in front of `upstream` (an emulator's base URL, with or without a path). */
export async function startRecordingProxy(
  upstream: string,
  options: ProxyOptions = {},
): Promise<RecordingProxy> {
  const target = new URL(upstream);
  const bodies: string[] = [];
  const holds = new Map<string, { taken: boolean; released: Promise<void>; release: () => void }>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const text = body.toString("latin1");
    bodies.push(text);
    for (const [marker, hold] of holds)
      if (!hold.taken && text.includes(marker)) {
        hold.taken = true;
        await hold.released;
      }
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        if (options.resetAfterProcessed?.(text)) {
          answer.resume();
          answer.on("end", () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    forward.end(body);
  });
  const release = (marker: string): void => {
    holds.get(marker)?.release();
    holds.delete(marker);
  };
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  const path = target.pathname === "/" ? "" : target.pathname;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    reached: (marker) => bodies.some((body) => body.includes(marker)),
    requests: (marker) => bodies.filter((body) => body.includes(marker)).length,
    hold(marker) {
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      holds.set(marker, { taken: false, released, release });
    },
    release,
    async close() {
      for (const marker of [...holds.keys()]) release(marker);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
