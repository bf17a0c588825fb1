/**
 * The Matrix adapter as tools see it (`@outbox/matrix/descriptor`): its settings, its
 * packages and its emulator. Loads the adapter only when one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { matrixCapabilities } from "./capabilities.js";

/** The Matrix adapter's descriptor. */
export const descriptor: AdapterDescriptor<"accessToken" | "homeserver"> = {
  name: "matrix",
  title: "Matrix",
  packages: ["@outbox/matrix"],
  env: [
    {
      name: "OUTBOX_MATRIX_TOKEN",
      field: "accessToken",
      required: true,
      secret: true,
      help: "log the bot's user in (POST /_matrix/client/v3/login) and copy its access_token",
    },
    {
      name: "OUTBOX_MATRIX_HOMESERVER",
      field: "homeserver",
      required: true,
      help: "the homeserver's URL (https://matrix.example.org)",
    },
  ],
  target: {
    description:
      "the room id (!…:server, Room settings → Advanced) or an alias (#room:server), with the bot's user invited to the room",
    example: "!abcdefghijklmnop:matrix.org",
  },
  capabilities: matrixCapabilities,
  async createAdapter(config, media) {
    const { createMatrixAdapter } = await import("./adapter.js");
    return createMatrixAdapter({ homeserver: "", accessToken: "", ...config, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
