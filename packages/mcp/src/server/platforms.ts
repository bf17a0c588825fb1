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
  /**
   * Whether the adapter and its platform library are installed (loads them). Absent: taken
   * as installed. The server offers only the installed platforms at start.
   */
  installed?(): Promise<boolean>;
}

/** Whether `load()` finds its packages: false on ERR_MODULE_NOT_FOUND, other errors thrown. */
export async function present(load: () => Promise<unknown>): Promise<boolean> {
  try {
    await load();
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") return false;
    throw error;
  }
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
    installed: () => present(() => import("@outbox/telegram")),
    emulate: async (options) => (await import("@outbox/telegram/testing")).createEmulatedChannel(options),
  },
  slack: {
    tokenEnv: "OUTBOX_SLACK_TOKEN",
    packages: "@outbox/slack @slack/web-api",
    async connect(token, media) {
      const { createSlackAdapter } = await import("@outbox/slack");
      return createSlackAdapter({ token, media });
    },
    installed: () => present(() => import("@outbox/slack")),
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
    installed: () => present(() => import("@outbox/discord")),
    async emulate(options) {
      const { createEmulatedChannel } = await import("@outbox/discord/testing");
      return createEmulatedChannel(options);
    },
  },
  matrix: {
    tokenEnv: "OUTBOX_MATRIX_TOKEN",
    packages: "@outbox/matrix",
    async connect(token, media) {
      const { createMatrixAdapter } = await import("@outbox/matrix");
      // The homeserver is a second setting of its own (no token names it).
      const homeserver = process.env.OUTBOX_MATRIX_HOMESERVER ?? "";
      return createMatrixAdapter({ homeserver, accessToken: token, media });
    },
    installed: () => present(() => import("@outbox/matrix")),
    async emulate(options) {
      const { createEmulatedChannel } = await import("@outbox/matrix/testing");
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
    installed: () => present(() => import("@outbox/whatsapp")),
    async emulate(options) {
      const { createEmulatedChannel } = await import("@outbox/whatsapp/testing");
      return createEmulatedChannel(options);
    },
  },
};
