/**
 * A media host for an emulated platform to fetch from (Teams, Google Chat: a bot links its
 * files rather than uploading them): core's self-hosted media host over a temporary
 * directory, on its own port of 127.0.0.1 (the platform fetches a bot's links from the
 * internet; here from the loopback address). The adapter under test is given it as its
 * `media.host`.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSelfHostedMedia } from "../media/host/self-hosted.js";
import type { MediaHost } from "../media/host/types.js";

/** A running host. */
export interface EmulatedMediaHost {
  /** The host to give the adapter. */
  host: MediaHost;
  /** Stop serving and delete what it kept. */
  close(): Promise<void>;
}

/** Start one. */
export async function startEmulatedMediaHost(): Promise<EmulatedMediaHost> {
  const directory = await mkdtemp(join(tmpdir(), "outbox-emulated-media-"));
  let listener:
    | ((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void)
    | undefined;
  const server = createServer((req, res) => listener?.(req, res)).listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const media = createSelfHostedMedia({
    publicUrl: `http://127.0.0.1:${port}/media/`,
    secret: randomBytes(32),
    store: directory,
    sweepEveryMs: 0,
  });
  listener = media.listener;
  return {
    host: media,
    close: async () => {
      media.close();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
      await rm(directory, { recursive: true, force: true });
    },
  };
}
