/**
 * The Google Chat adapter: capabilities, the markup renderer and the Chat API transport, put
 * together by core's engine.
 */
import {
  type ChannelAdapter,
  ConfigError,
  createAdapter,
  providedTokens,
  systemClock,
  type TokenSource,
  undiciAgent,
} from "@outbox/core";
import type { Dispatcher } from "undici";
import { googlechatCapabilitiesFor } from "./capabilities.js";
import { createChatClient } from "./client/chat.js";
import { readServiceAccount } from "./client/service-account.js";
import { serviceAccountTokens } from "./client/token.js";
import { googleChatRenderer } from "./render/renderer.js";
import { createGoogleChatTransport } from "./transport/transport.js";
import type { GoogleChatAdapterConfig } from "./types.js";

/** The scope of a Chat app acting as itself. */
export const CHAT_BOT_SCOPE = "https://www.googleapis.com/auth/chat.bot";

const FIX =
  "createGoogleChatAdapter({ credentials: process.env.OUTBOX_GOOGLECHAT_CREDENTIALS }) with the service account's JSON key, or getToken (docs/adapters/googlechat.md)";

/**
 * Create the Google Chat adapter. Throws a `ConfigError` (naming the field and the fix) when
 * the key is missing or unreadable or the API URL is not one, before any call.
 */
export function createGoogleChatAdapter(config: GoogleChatAdapterConfig): ChannelAdapter {
  if (config === undefined || config === null)
    throw new ConfigError("createGoogleChatAdapter", "is missing", { field: "", fix: FIX });
  const apiUrl = config.apiUrl ?? "https://chat.googleapis.com";
  if (!/^https?:\/\//.test(apiUrl) || !URL.canParse(apiUrl))
    throw new ConfigError("createGoogleChatAdapter", "is not an http(s) URL", { field: "apiUrl", fix: FIX });
  if (config.getToken === undefined && (config.credentials === undefined || config.credentials === ""))
    throw new ConfigError("createGoogleChatAdapter", "is missing (or give getToken)", {
      field: "credentials",
      fix: FIX,
    });
  const account = config.getToken === undefined ? readServiceAccount(config.credentials ?? "") : undefined;
  const own = config.dispatcher === undefined ? undiciAgent({ keepAliveTimeout: 10_000 }) : undefined;
  const dispatcher = (config.dispatcher ?? own) as Dispatcher;
  const timeoutMs = config.timeoutMs ?? 60_000;
  const tokens: TokenSource =
    account === undefined
      ? providedTokens(config.getToken as NonNullable<typeof config.getToken>, "Google Chat")
      : serviceAccountTokens({
          account,
          scope: config.scope ?? CHAT_BOT_SCOPE,
          dispatcher,
          timeoutMs,
          clock: config.clock ?? systemClock,
        });
  const client = createChatClient({ apiUrl, tokens, dispatcher, ...(own ? { own } : {}), timeoutMs });
  return createAdapter({
    name: "googlechat",
    capabilities: googlechatCapabilitiesFor(config.rateLimits),
    renderer: googleChatRenderer,
    transport: createGoogleChatTransport(client, { threadFallback: config.threadFallback === true }),
    ...(config.media ? { media: config.media } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.store ? { store: config.store } : {}),
    // Never in our own messages; declared so the engine redacts it wherever else it could surface.
    ...(account ? { secrets: [account.pem] } : {}),
  });
}
