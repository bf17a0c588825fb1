/**
 * The web inbox of `outbox demo --web`: the web adapter's emulated channel (store, adapter, a
 * seeded message from the person), served to a browser by the inbox handler mounted in a small
 * server on 127.0.0.1 that also serves the showcase's canvas, as an integrator's app would.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmulatedChannel, MediaPolicy } from "@outbox/core";
import { loadOptional } from "../platforms.js";
import { CANVAS_PATH, latencyCanvas } from "./canvas.js";

/** A running web inbox for the demo. */
export interface WebDemo {
  /** The channel the showcase is delivered to. */
  channel: EmulatedChannel;
  /** The conversation's page with its token: the link to open. */
  url: string;
  /** Stop the server and the channel. */
  close(): Promise<void>;
}

/** Start the demo's web inbox on `port` (0: a free one). */
export async function startWebDemo(options: { media: MediaPolicy; port?: number }): Promise<WebDemo> {
  const [web, { createEmulatedChannel }] = await loadOptional("the web inbox (--web)", "@outbox/web", () =>
    Promise.all([import("@outbox/web"), import("@outbox/web/testing")]),
  );
  const channel = await createEmulatedChannel({ media: options.media });
  const secret = randomBytes(32).toString("hex");
  const inbox = web.createWebInboxHandler({
    auth: { secret },
    store: channel.inbox.store,
    title: "Outbox demo",
  });
  const server: Server = createServer((request, response) => {
    if (request.url === CANVAS_PATH)
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(latencyCanvas());
    else inbox(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const conversation = channel.target.to;
  const token = web.conversationToken(secret, conversation);
  return {
    channel,
    url: `http://127.0.0.1:${port}/c/${encodeURIComponent(conversation)}/?token=${encodeURIComponent(token)}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await channel.close();
    },
  };
}

/** Resolve on Ctrl-C (SIGINT) or SIGTERM: the demo keeps the inbox up until then. */
export function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
