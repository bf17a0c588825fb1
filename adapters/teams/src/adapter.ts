/**
 * The Teams adapter: capabilities, the HTML renderer and the connector transport, put
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
import { teamsCapabilitiesFor } from "./capabilities.js";
import { createConnectorClient } from "./client/connector.js";
import { clientCredentials } from "./client/token.js";
import { teamsRenderer } from "./render/renderer.js";
import { createTeamsTransport } from "./transport/transport.js";
import type { TeamsAdapterConfig } from "./types.js";

const FIX =
  "createTeamsAdapter({ clientId: process.env.OUTBOX_TEAMS_CLIENT_ID, clientSecret: process.env.OUTBOX_TEAMS_CLIENT_SECRET, tenantId: process.env.OUTBOX_TEAMS_TENANT_ID, serviceUrl: process.env.OUTBOX_TEAMS_SERVICE_URL }) (docs/adapters/teams.md)";

const blank = (value: unknown) => typeof value !== "string" || value.trim() === "";

/** The config's problem, if any: the field and what is wrong with it. */
function problem(config: TeamsAdapterConfig | undefined): [field: string, what: string] | undefined {
  if (config === undefined || config === null) return ["", "is missing"];
  if (blank(config.serviceUrl)) return ["serviceUrl", "is missing"];
  if (!/^https?:\/\//.test(config.serviceUrl) || !URL.canParse(config.serviceUrl))
    return ["serviceUrl", "is not an http(s) URL"];
  if (config.getToken !== undefined) return undefined;
  if (blank(config.clientId)) return ["clientId", "is missing (or give getToken)"];
  if (blank(config.clientSecret)) return ["clientSecret", "is missing (or give getToken)"];
  if (config.tokenUrl !== undefined && !URL.canParse(config.tokenUrl)) return ["tokenUrl", "is not a URL"];
  return undefined;
}

/**
 * Create the Teams adapter. Throws a `ConfigError` (naming the field and the fix) when the
 * service URL or the credentials are missing.
 */
export function createTeamsAdapter(config: TeamsAdapterConfig): ChannelAdapter {
  const wrong = problem(config);
  if (wrong !== undefined)
    throw new ConfigError("createTeamsAdapter", wrong[1], { field: wrong[0], fix: FIX });
  const own = config.dispatcher === undefined ? undiciAgent({ keepAliveTimeout: 10_000 }) : undefined;
  const dispatcher = (config.dispatcher ?? own) as Dispatcher;
  const timeoutMs = config.timeoutMs ?? 60_000;
  const tokens: TokenSource =
    config.getToken !== undefined
      ? providedTokens(config.getToken, "Teams")
      : clientCredentials({
          clientId: config.clientId as string,
          clientSecret: config.clientSecret as string,
          tokenUrl:
            config.tokenUrl ??
            `https://login.microsoftonline.com/${encodeURIComponent(config.tenantId ?? "botframework.com")}/oauth2/v2.0/token`,
          scope: config.scope ?? "https://api.botframework.com/.default",
          dispatcher,
          timeoutMs,
          clock: config.clock ?? systemClock,
        });
  const client = createConnectorClient({
    serviceUrl: config.serviceUrl,
    tokens,
    dispatcher,
    ...(own ? { own } : {}),
    timeoutMs,
  });
  const adapter = createAdapter({
    name: "teams",
    capabilities: teamsCapabilitiesFor(config.rateLimits),
    renderer: teamsRenderer,
    transport: createTeamsTransport(client),
    ...(config.media ? { media: config.media } : {}),
    ...(config.retry ? { retry: config.retry } : {}),
    ...(config.clock ? { clock: config.clock } : {}),
    ...(config.pacing ? { pacing: config.pacing } : {}),
    ...(config.store ? { store: config.store } : {}),
    // Never in our own messages; declared so the engine redacts it wherever else it could surface.
    ...(config.clientSecret ? { secrets: [config.clientSecret] } : {}),
  });
  return {
    ...adapter,
    // The token is made ready before the engine paces the reply: fetched inside the first paced
    // call, it would hold every operation the pacer released meanwhile, and they would reach the
    // connector at once, over its windows. A failure is left for that call to report in the receipt.
    // Only on the cold path, and only for a reply the plan accepts: bad input is refused first.
    // A held token costs a send no extra await.
    send: (payload, target, options) =>
      tokens.needsFetch()
        ? fetchThenSend(adapter, tokens, payload, target, options)
        : adapter.send(payload, target, options),
  };
}

/** Fetch the token when the engine would plan the reply, then send it. */
async function fetchThenSend(
  adapter: ChannelAdapter,
  tokens: TokenSource,
  ...[payload, target, options]: Parameters<ChannelAdapter["send"]>
) {
  if (await planned(adapter, payload, target)) await tokens.get(options?.signal).catch(() => undefined);
  return adapter.send(payload, target, options);
}

/** Whether the engine would plan this reply (its checks pass); the refusal is `send`'s to throw. */
async function planned(adapter: ChannelAdapter, ...[payload, target]: Parameters<ChannelAdapter["send"]>) {
  try {
    await adapter.plan?.(payload, target);
    return true;
  } catch {
    return false;
  }
}
