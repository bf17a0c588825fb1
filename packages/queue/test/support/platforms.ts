/**
 * Adapter factories for tests and the bench: the real Telegram (grammY), Slack
 * (@slack/web-api) and Discord (@discordjs/rest) adapters pointed at emulators, with the
 * queue's services spread in.
 */
import { createDiscordAdapter } from "@outbox/discord";
import { createSlackAdapter } from "@outbox/slack";
import { createTelegramAdapter } from "@outbox/telegram";
import type { AdapterFactory } from "../../src/index.js";

/** Where the emulators listen (JSON: it crosses into worker processes). */
export interface PlatformSpec {
  telegram?: { apiRoot: string; token: string };
  slack?: { slackApiUrl: string; token: string };
  discord?: { api: string; token: string };
  /** Directories local media may come from. */
  localRoots?: string[];
}

/** The factories of the platforms in `spec`. */
export function adapterFactories(spec: PlatformSpec): Record<string, AdapterFactory> {
  const media = spec.localRoots === undefined ? {} : { media: { localRoots: spec.localRoots } };
  const factories: Record<string, AdapterFactory> = {};
  const { telegram, slack, discord } = spec;
  if (telegram)
    factories.telegram = (services) => createTelegramAdapter({ ...telegram, ...media, ...services });
  if (slack) factories.slack = (services) => createSlackAdapter({ ...slack, ...media, ...services });
  if (discord) factories.discord = (services) => createDiscordAdapter({ ...discord, ...media, ...services });
  return factories;
}
