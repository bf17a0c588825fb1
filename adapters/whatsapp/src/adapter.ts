/**
 * The WhatsApp adapter: capabilities, the markup renderer and the Cloud API transport, put
 * together by core's engine.
 */
import { type ChannelAdapter, ConfigError, createAdapter, type MediaPolicy } from "@outbox/core";
import { whatsappCapabilitiesFor } from "./capabilities.js";
import { whatsappRenderer } from "./render/renderer.js";
import { createGraphClient } from "./transport/graph-client.js";
import { createWhatsAppTransport } from "./transport/transport.js";
import type { WhatsAppAdapterConfig } from "./types.js";

/**
 * Create the WhatsApp adapter. Throws a `ConfigError` (naming the field and the fix) when
 * the config, the token or the phone number id is missing, or `graphApiUrl` is not a URL.
 */
export function createWhatsAppAdapter(config?: WhatsAppAdapterConfig): ChannelAdapter {
  const missing = (["token", "phoneNumberId"] as const).filter(
    (field) => typeof config?.[field] !== "string" || config[field].trim() === "",
  );
  if (config === undefined || config === null || missing.length > 0)
    throw new ConfigError(
      "createWhatsAppAdapter",
      config && missing.length > 1 ? `and \`${missing[1]}\` are missing` : "is missing",
      {
        field: config ? (missing[0] ?? "") : "",
        fix: "createWhatsAppAdapter({ token: process.env.OUTBOX_WHATSAPP_TOKEN, phoneNumberId: process.env.OUTBOX_WHATSAPP_PHONE_NUMBER_ID }) (the Phone number ID from WhatsApp > API Setup, not the phone number)",
      },
    );
  const { graphApiUrl } = config;
  if (graphApiUrl !== undefined && (!/^https?:\/\//.test(graphApiUrl) || !URL.canParse(graphApiUrl)))
    throw new ConfigError("createWhatsAppAdapter", "is not an http(s) URL", {
      field: "graphApiUrl",
      fix: "leave graphApiUrl out for https://graph.facebook.com, or give the base URL of a Graph API proxy (https://…)",
    });
  const client = createGraphClient(config);
  return createAdapter({
    name: "whatsapp",
    capabilities: whatsappCapabilitiesFor(config.limits),
    renderer: whatsappRenderer,
    transport: createWhatsAppTransport(client, { previewUrl: config.previewUrl ?? false }),
    ...mediaPolicy(config),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.store ? { store: config.store } : {}),
    // Never in our own messages; declared so the engine redacts it wherever else it could surface.
    secrets: [client.token],
  });
}

/** The media policy: `mediaByLink: "link"` is `media.passThrough` under its earlier name. */
function mediaPolicy(config: WhatsAppAdapterConfig): { media?: MediaPolicy } {
  if (config.mediaByLink !== "link") return config.media ? { media: config.media } : {};
  return { media: { ...config.media, passThrough: config.media?.passThrough ?? true } };
}
