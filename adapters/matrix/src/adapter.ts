/**
 * The Matrix adapter: capabilities, the HTML renderer and the transport over the thin
 * client, put together by core's engine.
 */
import { type ChannelAdapter, createAdapter } from "@outbox/core";
import { matrixCapabilitiesFor } from "./capabilities.js";
import { MatrixClient } from "./client/matrix-client.js";
import { matrixRenderer } from "./render/renderer.js";
import { createMatrixTransport } from "./transport/transport.js";
import type { MatrixAdapterConfig } from "./types.js";

/** Create the Matrix adapter. Throws a `TypeError` when `homeserver` or `accessToken` is missing. */
export function createMatrixAdapter(config: MatrixAdapterConfig): ChannelAdapter {
  if (!config.homeserver || !/^https?:\/\//.test(config.homeserver))
    throw new TypeError("createMatrixAdapter needs a `homeserver` URL (https://matrix.example.org)");
  if (!config.accessToken) throw new TypeError("createMatrixAdapter needs the bot user's `accessToken`");
  const client = new MatrixClient({
    homeserver: config.homeserver,
    accessToken: config.accessToken,
    ...(config.dispatcher ? { dispatcher: config.dispatcher } : {}),
    ...(config.timeoutMs !== undefined ? { timeoutMs: config.timeoutMs } : {}),
  });
  return createAdapter({
    name: "matrix",
    capabilities: matrixCapabilitiesFor({
      ...(config.maxUploadBytes !== undefined ? { maxUploadBytes: config.maxUploadBytes } : {}),
      ...(config.rateLimit ? { rateLimit: config.rateLimit } : {}),
    }),
    renderer: matrixRenderer,
    transport: createMatrixTransport(client, {
      ...(config.notice !== undefined ? { notice: config.notice } : {}),
      ...(config.mentions !== undefined ? { mentions: config.mentions } : {}),
      ...(config.allowUnencryptedInEncryptedRooms !== undefined
        ? { allowUnencryptedInEncryptedRooms: config.allowUnencryptedInEncryptedRooms }
        : {}),
    }),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.media ? { media: config.media } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.store ? { store: config.store } : {}),
    secrets: [config.accessToken],
  });
}
