/**
 * The platforms `outbox-mcp` delivers to: for each, the environment variable holding its
 * token, how to build its adapter, and its emulated channel (`--emulator`). Adapter
 * packages are loaded only when a platform is used, so only the ones in use need to be
 * installed (with their platform library).
 */
import type { ChannelAdapter, EmulatedChannel, EmulatedChannelOptions, MediaPolicy } from "@outbox/core";

/** One platform `outbox-mcp` can deliver to. */
export interface McpPlatform {
  /** Environment variable holding the bot token (`OUTBOX_TELEGRAM_TOKEN`). */
  tokenEnv: string;
  /** The packages to install for it (adapter and platform library), named when they are missing. */
  packages: string;
  /** The adapter for a token, loading media under `media`. */
  connect(token: string, media: MediaPolicy): Promise<ChannelAdapter>;
  /** A ready channel on the platform's emulator (for `--emulator`). */
  emulate(options: EmulatedChannelOptions): Promise<EmulatedChannel>;
}

/** Every platform, by the name the `send_message` tool takes. */
export const mcpPlatforms: Readonly<Record<string, McpPlatform>> = {
  telegram: {
    tokenEnv: "OUTBOX_TELEGRAM_TOKEN",
    packages: "@outbox/telegram grammy",
    async connect(token, media) {
      const { createTelegramAdapter } = await import("@outbox/telegram");
      return createTelegramAdapter({ token, media });
    },
    emulate: async (options) => (await import("@outbox/telegram/testing")).createEmulatedChannel(options),
  },
  slack: {
    tokenEnv: "OUTBOX_SLACK_TOKEN",
    packages: "@outbox/slack @slack/web-api",
    async connect(token, media) {
      const { createSlackAdapter } = await import("@outbox/slack");
      return createSlackAdapter({ token, media });
    },
    async emulate(options) {
      const { createEmulatedChannel } = await import("@outbox/slack/testing");
      return createEmulatedChannel(options);
    },
  },
  discord: {
    tokenEnv: "OUTBOX_DISCORD_TOKEN",
    packages: "@outbox/discord @discordjs/rest",
    async connect(token, media) {
      const { createDiscordAdapter } = await import("@outbox/discord");
      return createDiscordAdapter({ token, media });
    },
    async emulate(options) {
      const { createEmulatedChannel } = await import("@outbox/discord/testing");
      return createEmulatedChannel(options);
    },
  },
  whatsapp: {
    tokenEnv: "OUTBOX_WHATSAPP_TOKEN",
    packages: "@outbox/whatsapp",
    async connect(token, media) {
      const { createWhatsAppAdapter } = await import("@outbox/whatsapp");
      // The number sending, beside the token: its Phone number ID from WhatsApp > API Setup.
      const phoneNumberId = process.env.OUTBOX_WHATSAPP_PHONE_NUMBER_ID ?? "";
      return createWhatsAppAdapter({ token, phoneNumberId, media });
    },
    async emulate(options) {
      const { createEmulatedChannel } = await import("@outbox/whatsapp/testing");
      return createEmulatedChannel(options);
    },
  },
};
