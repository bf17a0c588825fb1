/**
 * The Telegram adapter as tools see it (`@outbox/telegram/descriptor`): its settings, its
 * packages and its emulator. Loads neither grammY nor the adapter until one is built.
 */
import type { AdapterDescriptor } from "@outbox/core";
import { telegramCapabilities } from "./capabilities.js";

/** The Telegram adapter's descriptor. */
export const descriptor: AdapterDescriptor<"token" | "apiRoot"> = {
  name: "telegram",
  title: "Telegram",
  packages: ["@outbox/telegram", "grammy"],
  env: [
    {
      name: "OUTBOX_TELEGRAM_TOKEN",
      field: "token",
      required: true,
      secret: true,
      help: "create a bot with @BotFather and copy its token",
    },
    {
      name: "OUTBOX_TELEGRAM_API_ROOT",
      field: "apiRoot",
      help: "Bot API root, for a local Bot API server (default https://api.telegram.org)",
    },
  ],
  target: {
    description: "the numeric chat id (negative for groups); a user must have written to the bot first",
    example: "-1001234567890",
  },
  capabilities: telegramCapabilities,
  async createAdapter(config, media) {
    const { createTelegramAdapter } = await import("./adapter.js");
    return createTelegramAdapter({ ...config, media });
  },
  async createEmulatedChannel(options) {
    return (await import("./testing/emulated-channel.js")).createEmulatedChannel(options);
  },
  async startEmulator(options) {
    return (await import("./testing/standalone.js")).startStandaloneEmulator(options);
  },
};
