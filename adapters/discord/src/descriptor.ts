/**
 * The Discord adapter as tools see it (`@outbox/discord/descriptor`): its settings, its
 * packages and its emulator. Loads neither @discordjs/rest nor the adapter until one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { discordCapabilities } from "./capabilities.js";

/** The Discord adapter's descriptor. */
export const descriptor: AdapterDescriptor<"token" | "api"> = {
  name: "discord",
  title: "Discord",
  packages: ["@outbox/discord", "@discordjs/rest"],
  env: [
    {
      name: "OUTBOX_DISCORD_TOKEN",
      field: "token",
      required: true,
      secret: true,
      help: "in the Discord Developer Portal open your application, then Bot → Reset Token, and copy it",
    },
    {
      name: "OUTBOX_DISCORD_API",
      field: "api",
      help: "REST API root (default https://discord.com/api)",
    },
  ],
  target: {
    description:
      "the channel id (Developer Mode on, right-click the channel → Copy Channel ID), with the bot invited with View Channels and Send Messages",
    example: "1100000000000000001",
  },
  capabilities: discordCapabilities,
  async createAdapter(config, media) {
    const { createDiscordAdapter } = await import("./adapter.js");
    return createDiscordAdapter({ ...config, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
