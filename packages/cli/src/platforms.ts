/**
 * The one registry of platforms the CLI knows: how to build the real adapter from
 * `OUTBOX_<PLATFORM>_TOKEN`, and how to get a channel on the platform's emulator. Every
 * command reads this list; adding a platform is one entry here. Adapters load on first use,
 * so `outbox parse` never pays for a platform library, and they are optional peers: the CLI
 * installs alone and uses the adapters installed beside it, naming the npm command for a
 * missing one.
 */
import type { ChannelAdapter, EmulatedChannel, EmulatedChannelOptions, MediaPolicy } from "@outbox/core";
import { UsageError } from "./output/explain.js";

/** A package the CLI loads on use is not installed; `install` is the npm command adding it. */
export class NotInstalledError extends UsageError {
  /** `npm install …` for what is missing. */
  readonly install: string;

  constructor(what: string, packages: string, options?: { cause?: unknown }) {
    super(`${what} is not installed`, `npm install ${packages}`);
    this.install = `npm install ${packages}`;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * `load()`, with a missing package (ERR_MODULE_NOT_FOUND) turned into a
 * {@link NotInstalledError} naming `packages` (`what`: what needs them, for the message).
 */
export async function loadOptional<T>(what: string, packages: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND")
      throw new NotInstalledError(what, packages, { cause: error });
    throw error;
  }
}

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
  /** The packages to install for it (the adapter and its platform library), named when missing. */
  packages: string;
  /** Build the real adapter. */
  createAdapter(options: RealAdapterOptions): Promise<ChannelAdapter>;
  /** A fresh emulator with the real adapter wired to it. */
  createEmulatedChannel(options?: EmulatedChannelOptions): Promise<EmulatedChannel>;
  /**
   * In `outbox demo` without `--platform`. Default `true`; `false` for a platform whose chunk
   * limit would size the shared showcase reply far past every other platform's (Matrix: 61,440
   * bytes) and that has no albums, which the showcase shows off.
   */
  inDemo?: boolean;
}

/** Every platform, in demo order. */
const registry: readonly Platform[] = [
  {
    name: "telegram",
    tokenVariable: "OUTBOX_TELEGRAM_TOKEN",
    tokenHelp: "create a bot with @BotFather and copy its token",
    targetHelp: "use the numeric chat id (negative for groups); a user must have written to the bot first",
    packages: "@outbox/telegram grammy",
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
    packages: "@outbox/slack @slack/web-api",
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
    packages: "@outbox/discord @discordjs/rest",
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
    name: "matrix",
    inDemo: false,
    packages: "@outbox/matrix",
    tokenVariable: "OUTBOX_MATRIX_TOKEN",
    tokenHelp:
      "log the bot's user in (POST /_matrix/client/v3/login) and copy its access_token; set OUTBOX_MATRIX_HOMESERVER to the homeserver URL",
    targetHelp:
      "use the room id (!…:server, Room settings → Advanced) or an alias (#room:server), and invite the bot's user to the room",
    async createAdapter({ token, media, env }) {
      const { createMatrixAdapter } = await import("@outbox/matrix");
      const homeserver = env.OUTBOX_MATRIX_HOMESERVER;
      if (!homeserver)
        throw new TypeError(
          "set OUTBOX_MATRIX_HOMESERVER to the homeserver URL (https://matrix.example.org)",
        );
      return createMatrixAdapter({ homeserver, accessToken: token, media });
    },
    async createEmulatedChannel(options) {
      return (await import("@outbox/matrix/testing")).createEmulatedChannel(options);
    },
  },
  {
    name: "whatsapp",
    packages: "@outbox/whatsapp",
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

/** Every platform, in demo order; loading an adapter that is not installed throws {@link NotInstalledError}. */
export const platforms: readonly Platform[] = registry.map((platform) => {
  const what = `the ${platform.name} adapter`;
  return {
    ...platform,
    createAdapter: (options) => loadOptional(what, platform.packages, () => platform.createAdapter(options)),
    createEmulatedChannel: (options) =>
      loadOptional(what, platform.packages, () => platform.createEmulatedChannel(options)),
  };
});

/** The platforms `outbox demo` shows without `--platform`. */
export const demoPlatforms: readonly Platform[] = platforms.filter((platform) => platform.inDemo !== false);

/** The platform called `name`, if the CLI knows it. */
export function findPlatform(name: string): Platform | undefined {
  return platforms.find((platform) => platform.name === name.toLowerCase());
}

/** The platform names, for help and errors. */
export function platformNames(): string[] {
  return platforms.map((platform) => platform.name);
}
