/**
 * The one registry of platforms the CLI knows: how to build the real adapter from
 * `OUTBOX_<PLATFORM>_TOKEN`, and how to get a channel on the platform's emulator. Every
 * command reads this list; adding a platform is one entry here. Adapters load on first use,
 * so `outbox parse` never pays for a platform library.
 */
import type { ChannelAdapter, EmulatedChannel, EmulatedChannelOptions, MediaPolicy } from "@outbox/core";

/** What the CLI needs to build a real adapter. */
export interface RealAdapterOptions {
  /** The token, from `OUTBOX_<PLATFORM>_TOKEN`. */
  token: string;
  /** Media policy (local roots from `--root`, default the working directory). */
  media: MediaPolicy;
  /** The environment, for optional per-platform settings (such as an API root). */
  env: NodeJS.ProcessEnv;
}

/** One platform the CLI can demo and send to. */
export interface Platform {
  /** Name used on the command line and in output (`telegram`). */
  name: string;
  /** Environment variable holding the token (`OUTBOX_TELEGRAM_TOKEN`). */
  tokenVariable: string;
  /** Where a user gets the token, for the "missing token" error. */
  tokenHelp: string;
  /** What `--to` is on this platform, for the "unknown chat" error. */
  targetHelp: string;
  /** Build the real adapter. */
  createAdapter(options: RealAdapterOptions): Promise<ChannelAdapter>;
  /** A fresh emulator with the real adapter wired to it. */
  createEmulatedChannel(options?: EmulatedChannelOptions): Promise<EmulatedChannel>;
}

/** Every platform, in demo order. */
export const platforms: readonly Platform[] = [
  {
    name: "telegram",
    tokenVariable: "OUTBOX_TELEGRAM_TOKEN",
    tokenHelp: "create a bot with @BotFather and copy its token",
    targetHelp: "use the numeric chat id (negative for groups); a user must have written to the bot first",
    async createAdapter({ token, media, env }) {
      const { createTelegramAdapter } = await import("@outbox/telegram");
      const apiRoot = env.OUTBOX_TELEGRAM_API_ROOT;
      return createTelegramAdapter({ token, media, ...(apiRoot ? { apiRoot } : {}) });
    },
    async createEmulatedChannel(options) {
      return (await import("@outbox/telegram/testing")).createEmulatedChannel(options);
    },
  },
  {
    name: "slack",
    tokenVariable: "OUTBOX_SLACK_TOKEN",
    tokenHelp:
      "create a Slack app with the chat:write and files:write bot scopes, install it, and copy its Bot User OAuth Token (xoxb-…)",
    targetHelp: "use the channel id (C…, under the channel's About), and /invite the app to that channel",
    async createAdapter({ token, media, env }) {
      const { createSlackAdapter } = await import("@outbox/slack");
      const slackApiUrl = env.OUTBOX_SLACK_API_URL;
      return createSlackAdapter({ token, media, ...(slackApiUrl ? { slackApiUrl } : {}) });
    },
    async createEmulatedChannel(options) {
      return (await import("@outbox/slack/testing")).createEmulatedChannel(options);
    },
  },
  {
    name: "discord",
    tokenVariable: "OUTBOX_DISCORD_TOKEN",
    tokenHelp: "in the Discord Developer Portal open your application, then Bot → Reset Token, and copy it",
    targetHelp:
      "use the channel id (Developer Mode on, right-click the channel → Copy Channel ID), and invite the bot with View Channels and Send Messages",
    async createAdapter({ token, media, env }) {
      const { createDiscordAdapter } = await import("@outbox/discord");
      const api = env.OUTBOX_DISCORD_API;
      return createDiscordAdapter({ token, media, ...(api ? { api } : {}) });
    },
    async createEmulatedChannel(options) {
      return (await import("@outbox/discord/testing")).createEmulatedChannel(options);
    },
  },
  {
    name: "whatsapp",
    tokenVariable: "OUTBOX_WHATSAPP_TOKEN",
    tokenHelp:
      "in your Meta app open WhatsApp > API Setup (a temporary token), or generate a System User token with whatsapp_business_messaging; set OUTBOX_WHATSAPP_PHONE_NUMBER_ID to the Phone number ID shown there",
    targetHelp:
      "use the person's phone number with its country code (15551234567); they must have written to the number within 24 hours, and be on a test number's allowed list",
    async createAdapter({ token, media, env }) {
      const { createWhatsAppAdapter } = await import("@outbox/whatsapp");
      const graphApiUrl = env.OUTBOX_WHATSAPP_GRAPH_API_URL;
      const phoneNumberId = env.OUTBOX_WHATSAPP_PHONE_NUMBER_ID ?? "";
      return createWhatsAppAdapter({ token, phoneNumberId, media, ...(graphApiUrl ? { graphApiUrl } : {}) });
    },
    async createEmulatedChannel(options) {
      return (await import("@outbox/whatsapp/testing")).createEmulatedChannel(options);
    },
  },
];

/** The platform called `name`, if the CLI knows it. */
export function findPlatform(name: string): Platform | undefined {
  return platforms.find((platform) => platform.name === name.toLowerCase());
}

/** The platform names, for help and errors. */
export function platformNames(): string[] {
  return platforms.map((platform) => platform.name);
}
