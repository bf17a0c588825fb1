/**
 * The Matrix adapter: capabilities, the HTML renderer and the transport over the thin
 * client, put together by core's engine.
 */
import { type ChannelAdapter, ConfigError, createAdapter } from "@outbox/core";
import { matrixCapabilitiesFor } from "./capabilities.js";
import { MatrixClient } from "./client/matrix-client.js";
import { matrixRenderer } from "./render/renderer.js";
import { createMatrixTransport } from "./transport/transport.js";
import type { MatrixAdapterConfig } from "./types.js";

/**
 * Create the Matrix adapter. Throws a `ConfigError` (naming the field and the fix) when the
 * config is missing, `homeserver` is not an http(s) URL or `accessToken` is missing.
 */
export function createMatrixAdapter(config: MatrixAdapterConfig): ChannelAdapter {
  if (typeof config !== "object" || config === null)
    throw new ConfigError("createMatrixAdapter", "is missing", {
      field: "",
      fix: "createMatrixAdapter({ homeserver: process.env.OUTBOX_MATRIX_HOMESERVER, accessToken: process.env.OUTBOX_MATRIX_TOKEN })",
    });
  if (typeof config.homeserver !== "string" || !/^https?:\/\//.test(config.homeserver))
    throw new ConfigError("createMatrixAdapter", "is not an http(s) URL", {
      field: "homeserver",
      fix: 'pass the homeserver\'s client API base URL, e.g. homeserver: "https://matrix.example.org"',
    });
  if (typeof config.accessToken !== "string" || config.accessToken.trim() === "")
    throw new ConfigError("createMatrixAdapter", "is missing", {
      field: "accessToken",
      fix: "pass the bot user's access token, e.g. accessToken: process.env.OUTBOX_MATRIX_TOKEN",
    });
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
