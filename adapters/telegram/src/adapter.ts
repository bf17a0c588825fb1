/**
 * The Telegram adapter: capabilities, the HTML renderer and the grammY transport, put
 * together by core's engine.
 */
import { type ChannelAdapter, type Clock, ConfigError, createAdapter } from "@outbox/core";
import { Api, Bot } from "grammy";
import { telegramCapabilities } from "./capabilities.js";
import { telegramRenderer } from "./render/renderer.js";
import { createKeepAliveAgent } from "./transport/keep-alive.js";
import { createTelegramTransport } from "./transport/transport.js";
import type { TelegramAdapterConfig } from "./types.js";

/**
 * Create the Telegram adapter. Throws a `ConfigError` (naming the field and the fix)
 * when the config is missing or has neither `token` nor `client`.
 */
export function createTelegramAdapter(config?: TelegramAdapterConfig): ChannelAdapter {
  if (typeof config !== "object" || config === null)
    throw new ConfigError("createTelegramAdapter", "is missing", {
      field: "",
      fix: "createTelegramAdapter({ token: process.env.OUTBOX_TELEGRAM_TOKEN }) or ({ client: bot })",
    });
  const api = clientApi(config);
  const transport = createTelegramTransport(api, {
    capabilities: telegramCapabilities,
    linkPreview: config.linkPreview ?? true,
  });
  return createAdapter({
    name: "telegram",
    capabilities: telegramCapabilities,
    renderer: telegramRenderer,
    transport,
    ...(config.media ? { media: config.media } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.store ? { store: config.store } : {}),
    // grammY puts the token in every request URL, so it can surface in error text.
    secrets: api.token === "" ? [] : [api.token],
  });
}

const DEFAULT_API_ROOT = "https://api.telegram.org";

function clientApi(config: TelegramAdapterConfig): Api {
  if (config.client) return config.client instanceof Bot ? config.client.api : config.client;
  if (typeof config.token !== "string" || config.token.trim() === "")
    throw new ConfigError("createTelegramAdapter", "is missing and no `client` was given", {
      field: "token",
      fix: "pass `token` (the bot token from @BotFather, e.g. process.env.OUTBOX_TELEGRAM_TOKEN) or `client` (a grammY Bot or Api)",
    });
  return new Api(config.token, {
    ...(config.apiRoot ? { apiRoot: config.apiRoot.replace(/\/+$/, "") } : {}),
    timeoutSeconds: config.timeoutSeconds ?? 60,
    baseFetchConfig: {
      agent: createKeepAliveAgent(
        config.apiRoot ?? DEFAULT_API_ROOT,
        config.keepAliveIdleMs ?? 4_000,
        config.clock ? () => (config.clock as Clock).now() : Date.now,
      ),
    },
  });
}
