/**
 * A TCP proxy on 127.0.0.1 in front of the inbox, so a test can drop the browser's open
 * connections (as a flaky network or a restarting load balancer would), refuse new ones for a
 * while, and read the head of every HTTP request that passed (to see `Last-Event-ID`).
 */
import { connect, createServer, type Server, type Socket } from "node:net";

/** A running proxy. */
export interface TcpProxy {
  /** The port the browser connects to. */
  port: number;
  /** Heads of the HTTP requests that passed, in order (request line and headers). */
  requests: string[];
  /** Destroy every open connection; with `refuse`, also refuse new ones until {@link TcpProxy.accept}. */
  drop(options?: { refuse?: boolean }): void;
  /** Accept (and forward) connections again. */
  accept(): void;
  close(): Promise<void>;
}

/** Forward 127.0.0.1:<new port> to 127.0.0.1:`targetPort()` (read on each connection, so the target may move). */
export async function startTcpProxy(targetPort: () => number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const requests: string[] = [];
  let refusing = false;
  const server: Server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort(), "127.0.0.1");
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => undefined);
    }
    client.on("data", (chunk: Buffer) => {
      const text = chunk.toString("latin1");
      if (/^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/.test(text)) requests.push(text.split("\r\n\r\n")[0] ?? text);
    });
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    requests,
    drop(options = {}) {
      refusing = options.refuse ?? false;
      for (const socket of open) socket.destroy();
    },
    accept() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
