/**
 * The Google Chat adapter as tools see it (`@outbox/googlechat/descriptor`): its settings,
 * its packages and its emulator. Loads the adapter only when one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { googlechatCapabilities } from "./capabilities.js";

/** The Google Chat adapter's descriptor. */
export const descriptor: AdapterDescriptor<"credentials" | "apiUrl"> = {
  name: "googlechat",
  title: "Google Chat",
  packages: ["@outbox/googlechat"],
  env: [
    {
      name: "OUTBOX_GOOGLECHAT_CREDENTIALS",
      field: "credentials",
      required: true,
      secret: true,
      help: "the Chat app's service account JSON key: the file's content, or its path",
    },
    {
      name: "OUTBOX_GOOGLECHAT_API_URL",
      field: "apiUrl",
      help: "root of the Chat API, for a proxy or the emulator (default https://chat.googleapis.com)",
    },
  ],
  target: {
    description:
      "a space's name (spaces/…, in the space's URL); a thread's name (spaces/…/threads/…) or a thread key as the thread",
    example: "spaces/AAAAabcdEFG",
  },
  capabilities: googlechatCapabilities,
  async createAdapter(config, media) {
    const { createGoogleChatAdapter } = await import("./adapter.js");
    const credentials = config.credentials?.trim() ?? "";
    // A key file's path (as GOOGLE_APPLICATION_CREDENTIALS holds one) is read; JSON text is taken as it is.
    const key =
      credentials === "" || credentials.startsWith("{")
        ? credentials
        : await (await import("node:fs/promises")).readFile(credentials, "utf8");
    return createGoogleChatAdapter({ ...config, credentials: key, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
