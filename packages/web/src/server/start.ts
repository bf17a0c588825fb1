/**
 * Running the inbox: as a Node request handler to mount in an existing server, or on its own
 * port (127.0.0.1 by default).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, serve } from "@hono/node-server";
import type { WebMessageStore } from "../store/types.js";
import type { StartWebInboxOptions, WebInboxOptions } from "../types.js";
import { createWebInboxApp } from "./app.js";

/** A Node `(req, res)` handler serving the inbox; requests must arrive with the mount prefix removed from `req.url`. */
export type WebInboxHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** Build the inbox as a Node request handler (for `http.createServer`, Express `app.use("/inbox", handler)`, …). */
export function createWebInboxHandler(options: WebInboxOptions): WebInboxHandler {
  const listener = getRequestListener(createWebInboxApp(options).app.fetch);
  return (request, response) => void listener(request, response);
}

/** A running inbox. */
export interface WebInbox {
  /** Base URL, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The store it reads; pass it to `createWebAdapter({ store })`. */
  store: WebMessageStore;
  /** The token that opens a conversation. */
  tokenFor(conversation: string): string;
  /** The page of a conversation with its token (`…/c/<id>/?token=…`): the link to hand a person. */
  urlFor(conversation: string): string;
  /** Stop listening and end open event streams. */
  close(): Promise<void>;
}

/** Start the inbox on its own port. Resolves once it listens. */
export async function startWebInbox(options: StartWebInboxOptions): Promise<WebInbox> {
  const inbox = createWebInboxApp(options);
  const host = options.host ?? "127.0.0.1";
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: inbox.app.fetch, port: options.port ?? 0, hostname: host }, () =>
      resolve(started as Server),
    ) as Server;
    started.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    url,
    port,
    store: inbox.store,
    tokenFor: inbox.tokenFor,
    urlFor: (conversation) =>
      `${url}/c/${encodeURIComponent(conversation)}/?token=${encodeURIComponent(inbox.tokenFor(conversation))}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
