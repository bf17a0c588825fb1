/**
 * A self-hosted media host on 127.0.0.1 with a directory store in a temporary folder and a
 * manual clock; links name `https://media.example/media/` (the public proxy an integrator
 * puts in front), so `local()` points them at the test server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createManualClock,
  createSelfHostedMedia,
  type ManualClock,
  type MediaHostServer,
  type MediaToHost,
  type SelfHostedMedia,
  type SelfHostedMediaOptions,
  startMediaHost,
} from "../../../src/index.js";

/** The signing secret of every fixture (32 bytes). */
export const SECRET = "s".repeat(32);

/** A running fixture. */
export interface HostFixture {
  /** Temporary folder; the store is `<dir>/store`. */
  dir: string;
  clock: ManualClock;
  host: SelfHostedMedia;
  server: MediaHostServer;
  /** A hosted link pointed at the test server (same path and query). */
  local(url: string): string;
  /** Stop the server and delete the folder. */
  close(): Promise<void>;
}

/** Start a fixture; the clock starts at 1 Nov 2026. */
export async function startHostFixture(options: Partial<SelfHostedMediaOptions> = {}): Promise<HostFixture> {
  const dir = mkdtempSync(join(tmpdir(), "outbox-media-host-"));
  const clock = createManualClock(Date.UTC(2026, 10, 1));
  const host = createSelfHostedMedia({
    publicUrl: "https://media.example/media/",
    secret: SECRET,
    store: join(dir, "store"),
    clock,
    sweepEveryMs: 0,
    ...options,
  });
  const server = await startMediaHost(host);
  return {
    dir,
    clock,
    host,
    server,
    local: (url) => {
      const parsed = new URL(url);
      return `${server.url}${parsed.pathname}${parsed.search}`;
    },
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Bytes to put, as a one-chunk stream. */
export function bytesToHost(data: Uint8Array, mimeType: string, fileName: string): MediaToHost {
  return {
    mimeType,
    fileName,
    size: data.byteLength,
    async *open() {
      yield data;
    },
  };
}

/**
 * Send `head` (request line and headers, without the final blank line) as written, on a
 * raw socket: no client normalizes the path first. Resolves with the status and the answer.
 */
export async function rawRequest(port: number, head: string): Promise<{ status: number; text: string }> {
  const socket = connect(port, "127.0.0.1");
  socket.end(Buffer.from(`${head}\r\nHost: media.example\r\nConnection: close\r\n\r\n`, "latin1"));
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("latin1");
  return { status: Number(text.split(" ")[1]), text };
}
