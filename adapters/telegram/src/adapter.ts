/**
 * The Telegram adapter: capabilities, the HTML renderer and the grammY transport, put
 * together by core's engine.
 */
import { type ChannelAdapter, createAdapter } from "@outbox/core";
import { Api, Bot } from "grammy";
import { telegramCapabilities } from "./capabilities.js";
import { telegramRenderer } from "./render/renderer.js";
import { createKeepAliveAgent } from "./transport/keep-alive.js";
import { createTelegramTransport } from "./transport/transport.js";
import type { TelegramAdapterConfig } from "./types.js";

/** Create the Telegram adapter. Throws a `TypeError` when neither `token` nor `client` is given. */
export function createTelegramAdapter(config: TelegramAdapterConfig): ChannelAdapter {
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
  });
}

const DEFAULT_API_ROOT = "https://api.telegram.org";

function clientApi(config: TelegramAdapterConfig): Api {
  if (config.client) return config.client instanceof Bot ? config.client.api : config.client;
  if (!config.token) throw new TypeError("createTelegramAdapter needs a `token` or a grammY `client`");
  return new Api(config.token, {
    ...(config.apiRoot ? { apiRoot: config.apiRoot.replace(/\/+$/, "") } : {}),
    timeoutSeconds: config.timeoutSeconds ?? 60,
    baseFetchConfig: {
      agent: createKeepAliveAgent(config.apiRoot ?? DEFAULT_API_ROOT, config.keepAliveIdleMs ?? 4_000),
    },
  });
}
